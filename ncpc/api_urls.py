"""Machine-readable addresses under /api/v1/ (SPEC §14).

The season report is added with the import/export work.
"""

urlpatterns: list = []

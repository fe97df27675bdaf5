app_name = "members"

urlpatterns: list = []

app_name = "finance"

urlpatterns: list = []

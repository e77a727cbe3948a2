from django.apps import AppConfig


class ContributionsConfig(AppConfig):
    name = "cardsite.contributions"
    label = "contributions"
    verbose_name = "Contributions"

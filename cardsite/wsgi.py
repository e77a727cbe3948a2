import os

from django.core.wsgi import get_wsgi_application

from cardsite.runtime import tune_garbage_collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings.production")
application = get_wsgi_application()
tune_garbage_collector()

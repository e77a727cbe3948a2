from django.urls import path

from cardsite.contributions.api.files import file_urls
from cardsite.contributions.api.views import (
    CardConfirmView,
    CardHistoryView,
    CardRevertView,
    ProposalApproveView,
    ProposalDetailView,
    ProposalPhotoView,
    ProposalRejectView,
    ProposalsView,
)

urlpatterns = [
    path("proposals/", ProposalsView.as_view(), name="proposals"),
    path("proposals/photo/", ProposalPhotoView.as_view(), name="proposal-photo"),
    *file_urls,
    path("proposals/<int:pk>/", ProposalDetailView.as_view(), name="proposal-detail"),
    path("proposals/<int:pk>/approve/", ProposalApproveView.as_view(), name="proposal-approve"),
    path("proposals/<int:pk>/reject/", ProposalRejectView.as_view(), name="proposal-reject"),
    path("cards/<str:id>/history/", CardHistoryView.as_view(), name="card-history"),
    path(
        "cards/<str:id>/history/<int:change>/revert/",
        CardRevertView.as_view(),
        name="card-change-revert",
    ),
    path("cards/<str:id>/confirm/", CardConfirmView.as_view(), name="card-confirm"),
]

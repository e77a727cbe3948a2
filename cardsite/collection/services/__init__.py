"""Writes to collections and to who may read or pool them: keyword-only services, one
module per job."""

from cardsite.collection.services.exporting import collection_export
from cardsite.collection.services.importing import (
    CollectionImportError,
    ImportResult,
    collection_import,
)
from cardsite.collection.services.quantity import collection_adjust, collection_set_quantity
from cardsite.collection.services.reading import MAX_IMPORT_BYTES, MAX_IMPORT_LINES

__all__ = [
    "MAX_IMPORT_BYTES",
    "MAX_IMPORT_LINES",
    "CollectionImportError",
    "ImportResult",
    "collection_adjust",
    "collection_export",
    "collection_import",
    "collection_set_quantity",
]

"""Short, stable card ids for short links (/c/<id>) and the QR codes that point at them.

The id is derived from what identifies a printing (game, set code, collector number), not
from a database key, so it survives re-imports, exports and fresh databases: a printed
proxy's QR code keeps working.
"""

import hashlib
from collections.abc import Iterator

# Crockford's base32 without the letters people misread (i, l, o, u), lower-cased for URLs.
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
LENGTH = 8


def short_id_for(game_slug: str, set_code: str, number: str) -> str:
    digest = hashlib.blake2b(
        f"{game_slug}\x1f{set_code.upper()}\x1f{number}".encode(), digest_size=8
    ).digest()
    value = int.from_bytes(digest, "big")
    chars = []
    for _ in range(LENGTH):
        value, index = divmod(value, 32)
        chars.append(ALPHABET[index])
    return "".join(chars)


def is_valid_short_id(value: str) -> bool:
    return len(value) == LENGTH and all(c in ALPHABET for c in value)


def short_id_candidates(game_slug: str, set_code: str, number: str) -> Iterator[str]:
    """The derived id first, then salted ones, for the rare collision between two printings."""
    yield short_id_for(game_slug, set_code, number)
    salt = 1
    while True:
        yield short_id_for(game_slug, set_code, f"{number}\x1f{salt}")
        salt += 1

"""How close a typed name is to a card's name, ranked the way people misspell.

Pure Python on rapidfuzz (no Django), so every place that suggests a name (search's "did you
mean", unknown cards in a decklist, /api/v1/cards/named/?fuzzy=) and every place that
suggests a value for a search term ranks with the same scorer.

People keep the first letters of a word and get its middle wrong: they drop, double or swap
letters, write what they hear (ph/f, ie/ei, c/k/s, "insite" for "insight"), leave out "The"
and split or join words. So a name scores by its words, each compared three ways (Jaro-Winkler,
which rewards an agreeing start; optimal string alignment, which counts a swap as one edit;
and the same alignment on a rough phonetic spelling), and by the whole name with its spaces
dropped, for wrong spacing. Whole-text scorers such as WRatio rank "deth" nearer "Boreth"
(five letters in common, in order) than "Death, the Pale Horse"; this one does not.

Texts are expected folded (engines.filters.text.fold): lower-case ASCII words.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import process
from rapidfuzz.distance import OSA, JaroWinkler

# Left out on both sides: "insight" is The Insight, "the famine" is Famine.
ARTICLES = frozenset({"the", "a", "an"})

# A rough English phonetic spelling: not a full Metaphone, only the confusions that typos in
# card names show. Applied in order; each pattern sees the previous ones' output.
_SOUNDS = [
    (re.compile(r"(.)\1+"), r"\1"),  # doubled letters: "dopelganger", "ferenginarr"
    (re.compile(r"ph"), "f"),  # "metamorfosis", "hierofant"
    (re.compile(r"igh"), "i"),  # "insite"
    (re.compile(r"gh"), "g"),
    (re.compile(r"ck|q|c(?=[aouklr])|c$"), "k"),  # "heliocracken", "kantor"
    (re.compile(r"c(?=[eiy])"), "s"),  # "ise planet"
    (re.compile(r"x"), "ks"),  # "deridecks"
    (re.compile(r"z"), "s"),  # "phazer", "berzerker"
    (re.compile(r"y"), "i"),  # "empyre"
    (re.compile(r"(?<=[^aeiou])e$"), ""),  # a silent final e: "insite", "archiv"
    (re.compile(r"(?<=.)[aeiou]+"), "a"),  # after the first letter, vowels sound alike
]

# Each query word is compared in C with the whole vocabulary, keeping this many words per
# comparison (three comparisons): the candidates are the names holding any of them.
WORDS_PER_COMPARISON = 8
# Candidate names scored exactly (in Python, ~20 µs each); more are first cut by a rough
# score from their best words alone.
MAX_CANDIDATES = 100


def sound(word: str) -> str:
    """`word` spelt roughly as it sounds, so that spellings that sound alike compare equal."""
    for pattern, replacement in _SOUNDS:
        word = pattern.sub(replacement, word)
    return word


def _content_words(text: str) -> list[str]:
    words = text.split()
    return [w for w in words if w not in ARTICLES] or words


def word_similarity(typed: str, word: str, typed_sound: str = "", word_sound: str = "") -> float:
    """0 to 1: how likely `typed` is a misspelling of `word`."""
    if typed == word:
        return 1.0
    # An agreeing start (Jaro-Winkler's prefix) is likely, but never as good as a match.
    start = JaroWinkler.normalized_similarity(typed, word) * 0.97
    edits = OSA.normalized_similarity(typed, word)
    # Sounding alike is slightly less sure than being spelt alike.
    heard = OSA.normalized_similarity(typed_sound or sound(typed), word_sound or sound(word)) * 0.95
    return max(start, edits, heard)


def _combined(best_per_word: list[float], name_words: int, joined: float) -> float:
    """0 to 100 from each typed word's best similarity to a word of the name, how many words
    the name has, and the similarity of the two with their spaces dropped."""
    by_words = sum(best_per_word) / len(best_per_word)
    # A part of a name is a fair attempt at it ("deth" for Death, the Pale Horse), so names
    # with words left untyped lose only a little, and only to an equally good shorter name.
    coverage = min(1.0, len(best_per_word) / name_words)
    # Wrong spacing ("cloud glider", "thirdeye") matches no single word but the whole.
    return 100 * max(by_words * (0.9 + 0.1 * coverage), joined)


def score(typed: str, name: str) -> float:
    """0 to 100: how likely folded `typed` is an attempt at folded `name`."""
    typed_words, name_words = _content_words(typed), _content_words(name)
    name_sounds = [sound(w) for w in name_words]
    best_per_word = [
        max(
            word_similarity(t, w, sound(t), s) for w, s in zip(name_words, name_sounds, strict=True)
        )
        for t in typed_words
    ]
    joined = OSA.normalized_similarity("".join(typed_words), "".join(name_words))
    return _combined(best_per_word, len(name_words), joined)


@dataclass
class NameIndex:
    """Folded names, with the vocabulary of their words, for ranking typed names quickly."""

    names: Sequence[str]
    words: list[str] = field(init=False)
    sounds: list[str] = field(init=False)
    joined: list[str] = field(init=False)
    # Per name, its content words as indexes into `words`; per word, the names holding it.
    name_words: list[tuple[int, ...]] = field(init=False)
    holders: list[list[int]] = field(init=False)

    def __post_init__(self) -> None:
        ids: dict[str, int] = {}
        self.name_words = []
        for name in self.names:
            content = dict.fromkeys(_content_words(name))
            self.name_words.append(tuple(ids.setdefault(w, len(ids)) for w in content))
        self.words = list(ids)
        self.sounds = [sound(w) for w in self.words]
        self.holders = [[] for _ in self.words]
        for i, word_ids in enumerate(self.name_words):
            for w in word_ids:
                self.holders[w].append(i)
        self.joined = ["".join(_content_words(n)) for n in self.names]

    def _near_words(self, typed: str, heard: str) -> set[int]:
        """Vocabulary words near `typed`, by index: each comparison's best, found in C."""
        found: set[int] = set()
        for query, choices, scorer in (
            (typed, self.words, JaroWinkler.normalized_similarity),
            (typed, self.words, OSA.normalized_similarity),
            (heard, self.sounds, OSA.normalized_similarity),
        ):
            best = process.extract(query, choices, scorer=scorer, limit=WORDS_PER_COMPARISON)
            found.update(i for _, _, i in best)
        return found

    def best(self, typed: str, limit: int) -> list[tuple[str, float]]:
        """The `limit` names most like folded `typed`, best first, with their scores."""
        typed_words = _content_words(typed)
        if not typed_words or not self.names:
            return []
        heard = [sound(w) for w in typed_words]
        # similarity[k][w]: typed word k against vocabulary word w, computed once.
        similarity: list[dict[int, float]] = [{} for _ in typed_words]

        def compare(k: int, w: int) -> float:
            known = similarity[k].get(w)
            if known is None:
                known = similarity[k][w] = word_similarity(
                    typed_words[k], self.words[w], heard[k], self.sounds[w]
                )
            return known

        rough: dict[int, float] = defaultdict(float)
        for k in range(len(typed_words)):
            best_of_name: dict[int, float] = {}
            for w in self._near_words(typed_words[k], heard[k]):
                value = compare(k, w)
                for name in self.holders[w]:
                    if value > best_of_name.get(name, 0.0):
                        best_of_name[name] = value
            for name, value in best_of_name.items():
                rough[name] += value
        candidates = set(sorted(rough, key=rough.__getitem__, reverse=True)[:MAX_CANDIDATES])
        # Words split or joined wrongly match no single word: compare whole names too.
        together = "".join(typed_words)
        spaced = process.extract(
            together, self.joined, scorer=OSA.normalized_similarity, limit=WORDS_PER_COMPARISON
        )
        candidates.update(i for _, _, i in spaced)

        scored = []
        for i in candidates:
            word_ids = self.name_words[i]
            best_per_word = [max(compare(k, w) for w in word_ids) for k in range(len(typed_words))]
            joined = OSA.normalized_similarity(together, self.joined[i])
            scored.append((self.names[i], _combined(best_per_word, len(word_ids), joined)))
        # Ties go to the shorter name: less of it was left untyped.
        scored.sort(key=lambda pair: (-pair[1], len(pair[0]), pair[0]))
        return scored[:limit]


def best_values(typed: str, values: Iterable[str], *, cutoff: float) -> str | None:
    """The value (a type, a rarity, a key...) most like `typed`, if it scores `cutoff` or more."""
    scored = [(score(typed, v), v) for v in dict.fromkeys(values) if v]
    scored.sort(key=lambda pair: (-pair[0], len(pair[1]), pair[1]))
    return scored[0][1] if scored and scored[0][0] >= cutoff else None

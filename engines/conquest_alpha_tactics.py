"""Star Trek - Conquest Alpha: Tactics: identical 33-card faction decks and 24 target cards."""

from engines.base import CardTypeSpec, FaceLayout, GameEngine, StatField, StatKind, Zone

RULEBOOK = "star-trek-conquest-alpha-tactics.txt"

_PLAYER_CARD = "4 Card Anatomy: Player Card, 1. Card Type"
_TARGET_CARD = "4 Card Anatomy: Target Card, 4. Card Type"

ENGINE = GameEngine(
    slug="conquest-alpha-tactics",
    name="Star Trek - Conquest Alpha: Tactics",
    rulebook=RULEBOOK,
    stats=(
        StatField(
            "combat_power",
            "Combat Power",
            StatKind.INTEGER,
            "Base combat power of a player card (4 Card Anatomy, 3. Combat Power).",
            aliases=("cp", "power"),
            minimum=0,
        ),
        StatField(
            "victory_points",
            "Victory Points",
            StatKind.INTEGER,
            "Victory points of a target card (4 Card Anatomy, Target Card 2).",
            aliases=("vp",),
            minimum=0,
        ),
        StatField(
            "quadrant",
            "Quadrant",
            StatKind.CHOICE,
            "For planets: Alpha or Beta Quadrant (4 Card Anatomy, Target Card 3).",
            aliases=("quadrant",),
            choices=("alpha", "beta"),
        ),
        StatField(
            "planet_type",
            "Planet type",
            StatKind.CHOICE,
            "Federation planets are blue; Imperial planets are yellow, green and red "
            "(4 Card Anatomy, Note; 8.2 Scoring Effects).",
            aliases=("planet",),
            choices=("federation", "imperial"),
        ),
    ),
    card_types=(
        CardTypeSpec("Ship", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Tech", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Weapon", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Action", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Troops", zone="main", source=_PLAYER_CARD),
        CardTypeSpec("Planet", zone="targets", source=_TARGET_CARD),
        CardTypeSpec("Sector", zone="targets", source=_TARGET_CARD),
        CardTypeSpec("Quadrant", zone="targets", source=_TARGET_CARD),
        CardTypeSpec("Combat Zone", zone="targets", source=_TARGET_CARD),
    ),
    zones=(
        Zone("main", "Faction deck", "A faction's 33 player cards (3 Game Components)."),
        Zone(
            "targets",
            "Target cards",
            "The 24 target cards, 4 laid out each round (6 Round Overview).",
        ),
    ),
    # 4 Card Anatomy: Combat Power (player cards) or Victory Points (target cards) up top,
    # the faction abbreviation and the effect type letter (P/S/O/X/N) as badges.
    face=FaceLayout(
        corner_stats=("combat_power", "victory_points"),
        tag_stats=("planet_type", "quadrant"),
        stat_symbols=(
            ("combat_power", "CP"),
            ("victory_points", "VP"),
            ("planet_type", "planet"),
            ("quadrant", "Quadrant"),
        ),
        stat_colours=(("victory_points", "#C9960C"),),
        badge_keyword_kinds=("effect_type",),
        faction_badge=True,
    ),
)

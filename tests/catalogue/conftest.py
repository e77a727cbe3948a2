from tests.catalogue.live_games_support import games_folder

__all__ = ["games_folder"]

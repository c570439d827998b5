"""Play in the browser: the table server (`create_app`) and its static front end.

The server is the authority: it applies every action through the engine, appends it to the
store's event log, and sends each connection only its own seat's view.
"""

from .app import create_app
from .tables import Settings, TableManager

__all__ = ["Settings", "TableManager", "create_app"]

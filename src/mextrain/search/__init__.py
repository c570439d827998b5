"""Search bots that reason about the tiles they cannot see.

- `resample`: deal the unseen tiles again, consistently with one seat's knowledge;
- `ismcts`: information-set Monte Carlo tree search over those determinizations;
- `rollout`: the legal actions raced on shared determinizations, played out by the planner;
- `evaluate`: a static evaluation (each seat's chance to win) that ends playouts early;
- `analysis`: every legal action with its win probability and expected score (hints);
- `bots`: the ``ismcts`` bot and the ``easy``/``medium``/``hard``/``expert`` levels.

Importing this package registers the bots.
"""

from .analysis import ActionAnalysis, analyze
from .bots import BY_STRENGTH, LEVELS, ISMCTSBot, cap_think_time
from .evaluate import Evaluator
from .ismcts import ActionStats, SearchConfig, SearchResult, search
from .policy import FastPlannerPlayout, GreedyPlayout, PlayoutPolicy, make_policy
from .resample import InfoState, OpponentModel, ResampleError, resample
from .rollout import paired_difference, rollout_search

__all__ = [
    "BY_STRENGTH",
    "LEVELS",
    "ActionAnalysis",
    "ActionStats",
    "Evaluator",
    "FastPlannerPlayout",
    "GreedyPlayout",
    "ISMCTSBot",
    "InfoState",
    "OpponentModel",
    "PlayoutPolicy",
    "ResampleError",
    "SearchConfig",
    "SearchResult",
    "analyze",
    "cap_think_time",
    "make_policy",
    "paired_difference",
    "resample",
    "rollout_search",
    "search",
]

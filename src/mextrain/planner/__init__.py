"""The train planner: the exact longest personal train in a hand, and move hints.

Depends only on the rules core. See ``docs/PLANNER.md``.
"""

from .hints import Suggestion, best_action, rank_actions
from .trains import (
    Plan,
    PlanError,
    PlanLimit,
    PlanStepLimit,
    PlanTimeout,
    Train,
    best_train,
    plan,
    train_value,
)

__all__ = [
    "Plan",
    "PlanError",
    "PlanLimit",
    "PlanStepLimit",
    "PlanTimeout",
    "Suggestion",
    "Train",
    "best_action",
    "best_train",
    "plan",
    "rank_actions",
    "train_value",
]

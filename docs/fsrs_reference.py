#!/usr/bin/env python3
"""Reference numbers for tests/all/review_schedule.rs, from py-fsrs (an independent FSRS-6
implementation): `pip install fsrs` (checked with fsrs 6.3.2), then
`python3 docs/fsrs_reference.py`.

The scheduler is set up as Hastings schedules: default FSRS-6 parameters, desired
retention 0.9, no learning or relearning steps (a card answered right the first time
graduates at once), no fuzz. Each review happens exactly at the card's due time, or
the same day where the scenario says so.
"""
from datetime import datetime, timedelta, timezone

from fsrs import Card, Rating, Scheduler

scheduler = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
T0 = datetime(2025, 1, 1, 12, 0, tzinfo=timezone.utc)


def run(name, steps):
    """steps: (rating, when) with when = 'due' (at the due time) or a timedelta after
    the previous review."""
    card = Card()
    now = T0
    print(f"# {name}")
    for rating, when in steps:
        if when == "due" and card.last_review is not None:
            now = card.due
        elif isinstance(when, timedelta):
            now = now + when
        card, _ = scheduler.review_card(card, rating, review_datetime=now)
        ivl = (card.due - now).days
        print(
            f"{rating.name:5} at {now.isoformat()}: stability {card.stability:.6f} "
            f"difficulty {card.difficulty:.6f} interval {ivl} d"
        )


run("good x4, each at its due time", [(Rating.Good, "due")] * 4)
run(
    "good x3, then again at its due time, then good the same day",
    [(Rating.Good, "due")] * 3 + [(Rating.Again, "due"), (Rating.Good, timedelta(hours=1))],
)
run(
    "hard, easy, good, again, hard at due times",
    [
        (Rating.Hard, "due"),
        (Rating.Easy, "due"),
        (Rating.Good, "due"),
        (Rating.Again, "due"),
        (Rating.Hard, timedelta(days=1)),
    ],
)

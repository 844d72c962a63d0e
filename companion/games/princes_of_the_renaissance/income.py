"""Princes of the Renaissance: the income at the end of a decade.

Encodes (FACTS §3 of ../shared/rules/FACTS.md):
- income at the end of a decade (FACTS §3.6; TV-P5): `income`, `_book_income`.

Where the Czech summary and the English rules disagree (the readings, see `setup`):
- FACTS §3.3 and §6 "decade 2/3 first player": the left neighbour of the last first player
  (`first_left`; English `first_after_last_auction`): `_book_income`.

Decisions where the sources are silent (FACTS §3.10 marks them UNKNOWN):
- "the next player after whoever took the last action" (the English rules' first player of the
  next decade) is read as the player after the one who opened the auction of the decade's last
  event tile: that auction is the decade's last action.
"""
from __future__ import annotations

from collections.abc import Mapping
from ...engine.model import InvalidAction, Msg, N_

from .ledger import _count
from .preparation import DECADES, EVENTS_PER_DECADE, FAMILY_INCOME, LEDGER_MAX, MERCHANT_INCOME, POPE_INCOME, TROOPS, option


def income(state: Mapping, config: Mapping, family: str) -> dict:
    """A decade's income (FACTS §3.6; TV-P5): the family tile, city tiles and troops as printed, the
    Pope, the Merchant event, and the war pay waiting in the home city. Parts name where it comes from."""
    p = state["players"][family]
    parts = [("income.family", FAMILY_INCOME[0], FAMILY_INCOME[1])]
    for tile in p["tiles"]:
        if tile["gold"] or tile["influence"]:
            parts.append((f"tile.{tile['kind']}", tile["gold"], tile["influence"]))
    for troop in TROOPS:
        stats = p["troops"].get(troop)
        if stats and (stats["gold"] or stats["influence"]):
            parts.append((f"troop.{troop}", stats["gold"], stats["influence"]))
    if state["pope"] == family:
        parts.append(("pope", POPE_INCOME, 0))
    merchants = sum(t["kind"] == "merchant" for t in p["tiles"])
    if state["merchant_event"] == family and merchants:
        parts.append(("event.merchant", MERCHANT_INCOME * merchants, 0))
    if p["pay"]:
        parts.append(("income.war_pay", p["pay"], 0))
    return {"gold": sum(g for _, g, _ in parts), "influence": sum(i for _, _, i in parts), "parts": parts}


def _book_income(state: dict, args: Mapping, config: Mapping) -> None:
    """Book each player's income (as computed, or as counted at the table), collect the war pay,
    then: the Pope back, the war track to 0, the turned tiles reset, the next decade's events and
    first player. After decade III the final scoring follows."""
    incomes = args.get("incomes")
    if not isinstance(incomes, Mapping) or set(incomes) != set(state["players"]):
        raise InvalidAction(Msg(N_("Enter every player's income.")), field="incomes")
    checked = {}
    for family, entry in incomes.items():
        if not isinstance(entry, Mapping):
            raise InvalidAction(Msg(N_("Enter every player's income.")), field=f"incomes.{family}")
        checked[family] = {c: _count(entry.get(c), f"incomes.{family}.{c}", 0, LEDGER_MAX)
                           for c in ("gold", "influence")}
    for family, got in checked.items():
        p = state["players"][family]
        p["gold"] += got["gold"]
        p["influence"] += got["influence"]
        p["pay"] = 0
    state["incomes"].append({"decade": state["decade"], "incomes": checked})
    if state["decade"] == DECADES:
        state["phase"] = "final"
        return
    n = len(config["players"])
    if option(config, "first_left") or state["last_opener"] is None:
        first = (state["first"] + 1) % n
    else:
        families = [p["colour"] for p in config["players"]]
        first = (families.index(state["last_opener"]) + 1) % n
    state.update(phase="play", decade=state["decade"] + 1, first=first, turn=first, acted=False, pope=None,
                 wars=0, used=[], turn_cards=[], pope_joined=False, events_left=EVENTS_PER_DECADE, last_war=None,
                 last_auction=None)

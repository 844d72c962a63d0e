"""Princes of the Renaissance: war.

Encodes (FACTS §3 of ../shared/rules/FACTS.md):
- war: the war track, veto, war pay, the Pope's Holy League, Bribe Troops on any troop in the war,
  one's own and the Pope's too, the battle with its counter-attack and result (FACTS §3.5, §3.8;
  TV-P4): `_declare_war`, `_bribe`, `strength`, `battle_round`, `_battle` (the condottiere auctions
  (TV-P3) are in `auction`).

Where the Czech summary and the English rules disagree (the readings, see `setup`):
- FACTS §3.8 and §6 "Swiss Mercenaries": +1 attack only (`swiss_attack_only`; English
  `swiss_attack_and_defence`): `strength`;
- FACTS §3.5.8 and §6 "counter-attack": none, a higher defender wins and a tie is a draw
  (`no_counter_attack`; English `counter_attack`): `outcome`.

Decisions where the sources are silent (FACTS §3.10 marks them UNKNOWN):
- Ludovico Sforza's re-roll: the dice first entered are taken back with undo and the new ones are
  entered naming his holder, which turns the tile for the decade (`_battle`).
"""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping
from ...engine.model import InvalidAction, Msg, N_

from .ledger import ACTED, _card, _city, _clamped, _count, _family, _once
from .preparation import DIE, NEUTRAL, TROOPS, active_family, option, owns, start_war_left, war_limit


#: City-tile and family modifiers: (owner test, troop, attack bonus, defence bonus).
def _troop_bonuses(state: Mapping, config: Mapping, family: str) -> dict[str, tuple[int, int, str]]:
    bonuses: dict[str, tuple[int, int, str]] = {}
    if family == "d_este":
        bonuses["artillery"] = (1, 1, "family.d_este")
    if owns(state, family, "genoese_crossbow"):
        bonuses["crossbow"] = (0, 1, "tile.genoese_crossbow")
    if owns(state, family, "swiss_mercenaries"):
        bonuses["pike"] = (1, 0 if option(config, "swiss_attack_only") else 1, "tile.swiss_mercenaries")
    if owns(state, family, "armourer"):
        bonuses["cavalry"] = (1, 0, "tile.armourer")
    if owns(state, family, "spanish_infantry"):
        bonuses["light_infantry"] = (1, 1, "tile.spanish_infantry")
    return bonuses


def strength(state: Mapping, config: Mapping, war: Mapping, side: str, stat: str) -> tuple[int, list]:
    """A side's attack or defence before the die: its condottiere's troops (less any bribed), his
    tile and family bonuses, Caterina Sforza's +2 defence (for owning a troop: a bribe does not take it), the Pope's raw troop values (less any
    bribed) if he joined this side, and the modifier entered for anything else. A side without
    condottiere is 3/3.

    Returns the total and its parts `(text key, value)`.
    """
    family = war["condottieri"][side]
    parts: list[tuple[str, int]] = []
    if family is None:
        parts.append(("battle.neutral", NEUTRAL))
    else:
        troops = [t for t in TROOPS if t in state["players"][family]["troops"] and t not in war["bribed"][side]]
        bonuses = _troop_bonuses(state, config, family)
        for troop in troops:
            parts.append((f"troop.{troop}", state["players"][family]["troops"][troop][stat]))
            if troop in bonuses:
                attack, defence, label = bonuses[troop]
                bonus = attack if stat == "attack" else defence
                if bonus:
                    parts.append((label, bonus))
        if stat == "defence" and state["players"][family]["troops"] and owns(state, family, "caterina_sforza"):
            parts.append(("tile.caterina_sforza", 2))
    if war["pope"] == side and state["pope"]:
        raw = sum(t[stat] for name, t in state["players"][state["pope"]]["troops"].items()
                  if name not in war["bribed"]["pope"])
        parts.append(("pope", raw))
    if war["extra"][side]:
        parts.append(("battle.modifier", war["extra"][side]))
    return sum(v for _, v in parts), parts


def battle_round(state: Mapping, config: Mapping, war: Mapping, number: int, dice: Mapping[str, int]) -> dict:
    """One round: in round 1 the attacker's attack meets the defender's defence; in the counter-attack
    (round 2) the defender's attack meets the attacker's defence. Each side adds its die."""
    stats = {"attacker": "attack", "defender": "defence"} if number == 1 else \
        {"attacker": "defence", "defender": "attack"}
    result: dict[str, Any] = {"number": number, "dice": dict(dice), "sides": {}}
    for side, stat in stats.items():
        base, parts = strength(state, config, war, side, stat)
        result["sides"][side] = {"stat": stat, "base": base, "parts": parts, "total": base + dice[side]}
    return result


def outcome(rounds: list[dict], counter_attack: bool = True) -> tuple[str, str | None]:
    """("counter" | "over", winning side or None) after the rounds fought so far (FACTS §3.5.8)."""
    first = rounds[0]["sides"]
    if first["attacker"]["total"] > first["defender"]["total"]:
        return "over", "attacker"
    if not counter_attack:
        return "over", "defender" if first["defender"]["total"] > first["attacker"]["total"] else None
    if len(rounds) == 1:
        return "counter", None
    second = rounds[1]["sides"]
    return "over", "defender" if second["defender"]["total"] > second["attacker"]["total"] else None


def status_change(winner_total: int, loser_total: int) -> int:
    """2 when the winner's total is at least twice the loser's, otherwise 1 (FACTS §3.5.9)."""
    return 2 if winner_total >= 2 * loser_total else 1


def _declare_war(state: dict, args: Mapping, config: Mapping) -> None:
    """Attacker and defender among the five cities; the war track goes up (not with a Start War card,
    played at the end of the turn)."""
    card = args.get("card", False)
    if not isinstance(card, bool):
        raise InvalidAction(Msg(N_("This action is not understood.")))
    starter = active_family(state, config)
    if card:
        if not start_war_left(state):
            raise InvalidAction(Msg(N_("The Start War card has been played: the game has only one.")), field="card")
        _card(state, starter, "card")
        state["start_wars"] += 1
    else:
        if state["acted"]:
            raise InvalidAction(Msg(ACTED), field="card")
        if state["wars"] >= war_limit(len(config["players"])):
            raise InvalidAction(Msg(N_("No more wars this decade: the war track is full ({n})."),
                                    {"n": war_limit(len(config["players"]))}), field="attacker")
    attacker, defender = _city(args.get("attacker"), "attacker"), _city(args.get("defender"), "defender")
    if attacker == defender:
        raise InvalidAction(Msg(N_("A city cannot fight itself.")), field="defender")
    if not card:
        state["wars"] += 1
    state["acted"] = True
    state["war"] = {"attacker": attacker, "defender": defender, "starter": starter, "card": card, "stage": "veto",
                    "condottieri": {"attacker": None, "defender": None}, "pay": {"attacker": 0, "defender": 0},
                    "bribed": {"attacker": [], "defender": [], "pope": []}, "pope": None,
                    "extra": {"attacker": 0, "defender": 0},
                    "rounds": []}


def condottieri_for_hire(state: Mapping) -> bool:
    """Whether a war can have a condottiere: only a family with a troop may bid for one (FACTS §3.5.3);
    with none, a war declared ends at once without a result (§3.5.4), yet counts on the war track
    (§3.5.1) unless the Start War card began it."""
    return any(player["troops"] for player in state["players"].values())


def veto_possible(state: Mapping) -> bool:
    """Whether anyone could veto a war now: a treachery card in a hand (it may be the Veto; the hands
    are hidden) while no Veto has been played this turn, or an unused Lorenzo Medici."""
    cards = "veto" not in state["turn_cards"] and any(p["treachery"] for p in state["players"].values())
    return cards or _lorenzo(state)


def _veto(state: dict, args: Mapping, config: Mapping) -> None:
    """Veto card or Lorenzo Medici: the war does not happen; it still counts on the track."""
    war = state["war"]
    family = _family(state, args.get("player"))
    if args.get("how") == "lorenzo_medici":
        _once(state, family, "lorenzo_medici")
    elif args.get("how") == "card":
        if "veto" in state["turn_cards"]:
            raise InvalidAction(Msg(N_("The Veto card has been played this turn already.")), field="how")
        _card(state, family)
        state["turn_cards"].append("veto")
    else:
        raise InvalidAction(Msg(N_("Veto card or Lorenzo Medici?")), field="how")
    _end_war(state, dict(war, vetoed=family))


def _pope_joins(state: dict, args: Mapping, config: Mapping) -> None:
    """Holy League: the Pope's holder adds his troops' raw values to one side, once a decade."""
    war = state["war"]
    side = args.get("side")
    if side not in ("attacker", "defender"):
        raise InvalidAction(Msg(N_("Choose a side.")), field="side")
    war["pope"] = side
    state["pope_joined"] = True


def war_armies(state: Mapping, war: Mapping) -> dict[str, str]:
    """Whose troops fight in the war: the condottiere of each side and the Pope's holder if he joined
    (`{"attacker": family, "defender": family, "pope": family}`, absent ones left out)."""
    armies = {side: family for side, family in war["condottieri"].items() if family}
    if war["pope"] and state["pope"]:
        armies["pope"] = state["pope"]
    return armies


def _bribe(state: dict, args: Mapping, config: Mapping) -> None:
    """Bribe Troops: one troop taking part in this war, any side's and even your own or the Pope's,
    does not fight in it (before the dice; FACTS §3.8)."""
    war = state["war"]
    family = _family(state, args.get("player"))
    armies = war_armies(state, war)
    side, troop = args.get("side"), args.get("troop")
    if side not in armies:
        raise InvalidAction(Msg(N_("Choose a troop that takes part in this war.")), field="side")
    if troop not in state["players"][armies[side]]["troops"] or troop in war["bribed"][side]:
        raise InvalidAction(Msg(N_("Choose a troop that takes part in this war.")), field="troop")
    _card(state, family)
    war["bribed"][side].append(troop)


def _modifier(state: dict, args: Mapping, config: Mapping) -> None:
    """Any other modifier the players know of, per side, before the dice: `{"attacker": n, "defender": n}`."""
    war = state["war"]
    for side in ("attacker", "defender"):
        war["extra"][side] = _count(args.get(side, 0), side, -9, 9)


def _battle(state: dict, args: Mapping, config: Mapping) -> None:
    """One round of dice (entered, or rolled by the app before it sends them). `reroll` names the
    holder of Ludovico Sforza when these dice are the re-roll he asked for: his tile is turned for
    the decade (once a decade; the new roll stands)."""
    war = state["war"]
    dice = args.get("dice")
    if not isinstance(dice, Mapping):
        raise InvalidAction(Msg(N_("Enter both dice.")), field="dice")
    for side in ("attacker", "defender"):
        _count(dice.get(side), f"dice.{side}", 1, DIE)
    number = len(war["rounds"]) + 1
    played = battle_round(state, config, war, number, dice)
    if args.get("reroll") is not None:
        family = _family(state, args["reroll"], "reroll")
        if not owns(state, family, "ludovico_sforza"):
            raise InvalidAction(Msg(N_("This player does not hold Ludovico Sforza.")), field="reroll")
        if f"{family}:ludovico_sforza" in state["used"]:
            raise InvalidAction(Msg(N_("Ludovico Sforza has had the dice re-rolled this decade already.")),
                                field="reroll")
        state["used"].append(f"{family}:ludovico_sforza")
        played["reroll"] = family
    war["rounds"].append(played)
    stage, winner = outcome(war["rounds"], not option(config, "no_counter_attack"))
    if stage == "over":
        _result(state, war, winner)


def _result(state: dict, war: dict, winner: str | None) -> None:
    """Winner's condottiere +1 VP counter; status ±2 when the winner's total is at least twice the
    loser's, otherwise ±1, each city within 3…10 on its own."""
    war["winner"] = winner
    if winner:
        loser = "defender" if winner == "attacker" else "attacker"
        last = war["rounds"][-1]["sides"]
        change = status_change(last[winner]["total"], last[loser]["total"])
        war["change"] = change
        for side, sign in ((winner, 1), (loser, -1)):
            city = state["cities"][war[side]]
            city["status"] = _clamped(city["status"] + sign * change)
        if war["condottieri"][winner]:
            state["players"][war["condottieri"][winner]]["vp"] += 1
    _end_war(state, war)


def _end_war(state: dict, war: dict) -> None:
    war.setdefault("winner", None)
    state["last_war"] = war
    state["war"] = None


def _lorenzo(state: Mapping) -> bool:
    """Whether someone holds an unused Lorenzo Medici (a veto once a decade)."""
    return any(owns(state, f, "lorenzo_medici") and f"{f}:lorenzo_medici" not in state["used"]
               for f in state["players"])

"""Princes of the Renaissance: the reducers and the table of allowed actions.

Encodes who acts now and what may be done (issue 22) as one table, `moves`: the player on turn for
his turn's action and the end of his turn (a war as the turn's action, and the war of the game's one
Start War card at the end of a turn; the Veto card once a turn), the bidder on turn, the winner of an event tile
placing it, the war's starter going on past the veto, the condottiere whose attack (or
counter-attack) the dice decide; no ledger correction while an auction runs (FACTS §3.3–§3.5).
"""
from __future__ import annotations

from collections.abc import Mapping
from ...engine.flow import by_name
from ...engine.model import ALLOWED, Msg, N_, Rule, refused

from .abilities import _ability, _buy_card, _play_card
from .auction import _bid, _declare, _no_veto, _open_auction, _pass_bid, _place
from .income import _book_income
from .ledger import ACTED
from .preparation import active_family, start_war_left, war_limit
from .turn import _adjust, _begin, _buy_troop, _discard_troop, _end_turn, _finish, _transfer
from .war import _battle, _bribe, _lorenzo, _modifier, _pope_joins, _veto, war_armies


REDUCERS = {
    "begin": _begin, "end_turn": _end_turn, "buy_troop": _buy_troop, "discard_troop": _discard_troop,
    "buy_card": _buy_card, "play_card": _play_card, "ability": _ability, "transfer": _transfer, "adjust": _adjust,
    "open_auction": _open_auction, "bid": _bid, "pass_bid": _pass_bid, "place": _place,
    "declare_war": _declare, "veto": _veto, "no_veto": _no_veto, "pope_joins": _pope_joins, "bribe": _bribe,
    "modifier": _modifier, "battle": _battle, "book_income": _book_income, "finish": _finish,
}


def war_actor(state: Mapping, war: Mapping) -> tuple[str, Msg]:
    """Whose decision a war waits for, with his role: before the condottiere auctions the player who
    started it (anyone may still veto); in the battle the attacking city's condottiere (his attack),
    in the counter-attack the defending city's (his attack against the attacker's defence); a side
    without condottiere is fought by the other side's."""
    if war["stage"] == "veto":
        return war["starter"], Msg(N_("Started the war:"))
    counter = len(war["rounds"]) == 1
    first, second = ("defender", "attacker") if counter else ("attacker", "defender")
    if war["condottieri"][first]:
        return war["condottieri"][first], Msg(N_("Counter-attacks:") if counter else N_("Attacks:"))
    return war["condottieri"][second], Msg(N_("Defends:"))


def moves(state: Mapping, config: Mapping) -> dict[str, Rule]:
    """What may be done now and by whom: the setup, then a decade's turns (one action each, cards and
    tile abilities besides), an auction (the bidder on turn), an event tile waiting for its city (its
    winner), a war (the veto, the condottiere auctions, the battle), the income, the final scoring."""
    names = [kind for kind in REDUCERS if kind != "adjust"]
    if state["phase"] != "play":
        return _outside_decade(state["phase"], names)
    on_turn = frozenset({active_family(state, config)})
    current = state["auction"]
    table = dict.fromkeys(names, refused(N_("That is not possible at this point of the game.")))
    table["begin"] = refused(N_("The setup is done already."))
    table["book_income"] = refused(N_("The decade is not over: its last event tile is still to be auctioned."))
    table["finish"] = refused(N_("The final scoring comes after the income of decade III."))
    table["transfer"] = table["ability"] = ALLOWED
    table["adjust"] = (refused(N_("An auction is under way: correct the ledgers after it.")) if current
                       else ALLOWED)
    busy = _busy(state, config)
    table["end_turn"] = busy or Rule(by=on_turn)
    turn_action = busy or (refused(ACTED) if state["acted"] else Rule(by=on_turn))
    for kind in ("buy_troop", "buy_card", "open_auction"):
        table[kind] = turn_action
    table["discard_troop"] = turn_action if turn_action.refusal or state["players"][min(on_turn)]["troops"] \
        else refused(N_("This player has no troop to discard."))
    table["declare_war"] = busy or _war_rule(state, config, on_turn)
    table["play_card"] = (Rule(by=frozenset({current["next"]})) if current
                          else Rule(by=on_turn))
    table.update(_auction_moves(state))
    table.update(_war_stage_moves(state))
    return table


def _outside_decade(phase: str, names: list[str]) -> dict[str, Rule]:
    """Before the decades, between them (the income) and after them: one action is allowed, and the
    ledger correction except in the setup and once the game is over."""
    reason = {"setup": refused(N_("The decades have not begun: finish the setup first.")),
              "decade_end": refused(N_("The decade is over: book the income first.")),
              "final": refused(N_("The decades are over: only the final scoring is left.")),
              "over": refused(N_("The game is over."))}[phase]
    table = dict.fromkeys(names, reason)
    if phase == "setup":
        table["begin"] = ALLOWED
    elif phase == "decade_end":
        table["book_income"] = ALLOWED
    elif phase == "final":
        table["finish"] = ALLOWED
    table["adjust"] = reason if phase in ("setup", "over") else ALLOWED
    return table


def _busy(state: Mapping, config: Mapping) -> Rule | None:
    """Why the player on turn must wait (an event tile to place, an auction, a war), or None."""
    pending = state["pending"]
    if pending:
        return refused(N_("{name} places the event tile first."), name=by_name(config, {pending["player"]}))
    if state["auction"]:
        return refused(N_("An auction is under way: finish it first."))
    if state["war"]:
        return refused(N_("A war is under way: finish it first."))
    return None


def _auction_moves(state: Mapping) -> dict[str, Rule]:
    """The bidder on turn bids or passes (the opener may have to bid first); an event tile's winner
    places it."""
    current, pending = state["auction"], state["pending"]
    table: dict[str, Rule] = {}
    if current:
        bidder = Rule(by=frozenset({current["next"]}))
        table["bid"] = bidder
        table["pass_bid"] = (refused(N_("Whoever opens the auction makes the first bid."))
                             if current["opener_must_bid"] and not current["log"] else bidder)
    else:
        table["bid"] = table["pass_bid"] = refused(N_("No auction is under way."))
    table["place"] = (Rule(by=frozenset({pending["player"]})) if pending
                      else refused(N_("No event tile is waiting to be placed.")))
    return table


def _war_stage_moves(state: Mapping) -> dict[str, Rule]:
    """The war's own actions: none without a war or while its condottieri are auctioned."""
    war, current = state["war"], state["auction"]
    war_kinds = ("veto", "no_veto", "pope_joins", "bribe", "modifier", "battle")
    if not war:
        return dict.fromkeys(war_kinds, refused(N_("No war is under way.")))
    if current:
        return dict.fromkeys(war_kinds, refused(N_("The condottieri are being auctioned: finish the auction "
                                                   "first.")))
    return _war_moves(state, war)


def _war_rule(state: Mapping, config: Mapping, on_turn: frozenset) -> Rule:
    """A war as the turn's action (while the war track has room), or by the Start War card at the end
    of the turn (by the player on turn holding a treachery card, while the game's one card is unplayed)."""
    family = min(on_turn)
    card = state["players"][family]["treachery"] > 0 and start_war_left(state)
    limit = war_limit(len(config["players"]))
    if not state["acted"] and (state["wars"] < limit or card):
        return Rule(by=on_turn)
    if state["acted"] and card:
        return Rule(by=on_turn)
    if state["acted"] and not start_war_left(state):
        return refused(N_("The action of this turn is done, and the Start War card has been played: the game has "
                          "only one."))
    if state["acted"]:
        return refused(ACTED)
    return Rule(Msg(N_("No more wars this decade: the war track is full ({n})."), {"n": limit}), field="attacker")


def _war_moves(state: Mapping, war: Mapping) -> dict[str, Rule]:
    """A war's steps: the veto, then (after the condottiere auctions) the Pope, bribes and modifiers
    before the dice, the dice."""
    table: dict[str, Rule] = {}
    actor, _ = war_actor(state, war)
    if war["stage"] == "veto":
        table["veto"] = (refused(N_("Nobody can veto: the Veto card has been played this turn and no Lorenzo "
                                    "Medici is left unused."))
                         if "veto" in state["turn_cards"] and not _lorenzo(state) else ALLOWED)
        table["no_veto"] = Rule(by=frozenset({actor}))
        later = refused(N_("First the veto, then the condottiere auctions."))
        table.update(pope_joins=later, bribe=later, modifier=later, battle=later)
        return table
    veto_over = refused(N_("The veto comes before the condottiere auctions."))
    table.update(veto=veto_over, no_veto=veto_over)
    table["battle"] = Rule(by=frozenset({actor}))
    if war["rounds"]:
        dice = refused(N_("The dice are rolled: bribes, the Pope and modifiers come before them."))
        table.update(pope_joins=dice, bribe=dice, modifier=dice)
        return table
    table["modifier"] = ALLOWED
    armies = war_armies(state, war)
    table["bribe"] = Rule(by=frozenset(armies.values()))
    pope = state["pope"]
    if not pope:
        table["pope_joins"] = refused(N_("Nobody holds the Pope."))
    elif state["pope_joined"] or war["pope"]:
        table["pope_joins"] = refused(N_("The Pope joins one war a decade, and he has joined one."))
    elif pope in war["condottieri"].values():
        table["pope_joins"] = refused(N_("The Pope's holder fights in this war already."))
    else:
        table["pope_joins"] = Rule(by=frozenset({pope}))
    return table

"""Princes of the Renaissance (Martin Wallace, Warfrog 2003): setup, decades, the ledgers, auctions,
wars, income and the final scoring, assembled into `GAME`, the game's definition for the engine.

Encodes the rulebook as summarised in ../shared/rules/FACTS.md §3 (seed 002 and the English rules
S-RP-P), one concern a module; each module's docstring names the sections it encodes:
- `setup`: the box, the new-game form and the Czech/English readings, the setup, reading the state;
- `ledger`: the checks and ledger helpers shared by the actions, the end of a decade;
- `turn`: a turn, troops, deals and ledger corrections;
- `abilities`: treachery cards and the city tiles' abilities;
- `auction`: the auctions of city tiles, the Pope, event tiles and condottieri;
- `war`: the war track, the veto, the battle and its result;
- `income`: the income at the end of a decade;
- `scoring`: the city ranks, the final scoring and the check of `companion score` input;
- `moves`: the reducers and the table of allowed actions.
This module adds what the engine shows of a session: the final scoring from the ledgers
(`scoring_input`, `result`), the log lines (`describe`) and the turn guide (`guide`).
"""
from __future__ import annotations

from collections.abc import Mapping
from ...engine import auction
from ...engine.model import GameDef, Guide, Msg, N_

from .auction import bid_limit
from .income import income
from .moves import REDUCERS, moves, war_actor
from .scoring import city_ranks, final_scores, score_cli, triangular
from .preparation import (
    BANKING, CARDS, CITIES, CITY_MINIMUM, CLI_NAME, CZECH_READINGS, DECADES, DIE, EDITIONS, ENGLISH_READINGS, EVENTS,
    EVENTS_PER_DECADE, EVENT_VP_MAX, FAMILIES, FORM_OPTIONS, ID, KNOWN_EVENT_CURRENCY, KNOWN_TROOPS, LEDGER_MAX,
    NEUTRAL, STEPS, TILE_KINDS, TROOPS, active_family, city_name, hand_limit, initial_state, new_config, option,
    owns, seat_order, setup_items, start_war_left, steps, text, vp_counter_limit, war_limit)
from .war import battle_round, condottieri_for_hire, strength, veto_possible, war_armies

#: What the tests, the screens and the teach mode read as `rules.X`.
__all__ = ["BANKING", "CARDS", "CITIES", "CITY_MINIMUM", "CZECH_READINGS", "DECADES", "DIE", "EDITIONS", "ENGLISH_READINGS",
           "EVENTS", "EVENTS_PER_DECADE", "EVENT_VP_MAX", "FAMILIES", "FORM_OPTIONS", "GAME", "ID",
           "KNOWN_EVENT_CURRENCY", "KNOWN_TROOPS", "LEDGER_MAX", "NEUTRAL", "STEPS", "TILE_KINDS", "TROOPS",
           "active_family", "battle_round", "bid_limit", "city_name", "city_ranks", "condottieri_for_hire",
           "final_scores", "guide",
           "hand_limit", "income", "moves", "option", "owns", "score_cli", "scoring_input", "seat_order",
           "setup_items", "start_war_left", "strength", "text", "triangular", "veto_possible", "vp_counter_limit", "war_armies"]


def scoring_input(state: Mapping, config: Mapping) -> tuple[dict, list[dict]]:
    """The final-scoring entries from the ledgers (the same shape `companion score` checks)."""
    players = []
    for p in config["players"]:
        ledger = state["players"][p["colour"]]
        tiles = {c: sum(t["city"] == c for t in ledger["tiles"]) for c in CITIES}
        players.append({"id": p["colour"], "name": p["name"], "gold": ledger["gold"],
                        "influence": ledger["influence"], "pope": state["pope"] == p["colour"],
                        "events_vp": [e["vp"] for e in ledger["events"]], "vp_counters": ledger["vp"],
                        "city_tiles": {c: n for c, n in tiles.items() if n},
                        "merchant_tiles": sum(t["kind"] == "merchant" for t in ledger["tiles"]),
                        "merchant_event": state["merchant_event"] == p["colour"]})
    return state["cities"], players


def result(state: Mapping, config: Mapping) -> dict:
    """The final scoring of the session: the same `final_scores` as `companion score`."""
    return final_scores(*scoring_input(state, config), option(config, "tied_gold_no_second"))


def describe(action: Mapping, config: Mapping) -> Msg:
    """What an action did, for the game log and the undo button."""
    kind, args = action.get("type"), action.get("args", {})
    names = {p["colour"]: p["name"] for p in config["players"]}
    who = names.get(args.get("player"), "")
    simple = {"begin": N_("Setup finished, decade I begins"), "end_turn": N_("Turn ended"),
              "buy_card": N_("A treachery card bought"), "no_veto": N_("No veto: the condottieri are auctioned"),
              "finish": N_("Final scoring done"), "tick": N_("Setup: ticked an item"),
              "book_income": N_("Income booked, the decade ends")}
    if kind == "buy_troop":
        return Msg(N_("Troop bought: {troop}"), {"troop": text(f"troop.{args.get('troop')}")})
    if kind == "discard_troop":
        return Msg(N_("Troop discarded: {troop}"), {"troop": text(f"troop.{args.get('troop')}")})
    if kind == "open_auction":
        lot = {"city": text(f"city.{args.get('city')}"), "pope": text("pope"),
               "event": text(f"event.{args.get('event')}")}.get(args.get("lot"), "")
        return Msg(N_("Auction opened: {lot}, first bid {amount}"), {"lot": lot, "amount": args.get("amount")})
    if kind == "bid":
        return Msg(N_("{name} bids {amount}"), {"name": who, "amount": args.get("amount")})
    if kind == "pass_bid":
        return Msg(N_("{name} passes"), {"name": who})
    if kind == "place":
        return (Msg(N_("Event placed at {city}"), {"city": city_name(args["city"])}) if args.get("city") in CITIES
                else Msg(N_("Event discarded")))
    if kind == "declare_war":
        return Msg(N_("War: {attacker} attacks {defender}"),
                   {"attacker": text(f"city.{args.get('attacker')}"), "defender": text(f"city.{args.get('defender')}")})
    if kind == "veto":
        return Msg(N_("{name} vetoes the war"), {"name": who})
    if kind == "pope_joins":
        return Msg(N_("The Pope joins the war"))
    if kind == "bribe":
        return Msg(N_("{name} bribes: {troop}"), {"name": who, "troop": text(f"troop.{args.get('troop')}")})
    if kind == "modifier":
        return Msg(N_("Battle modifier set"))
    if kind == "battle":
        dice = args.get("dice") or {}
        return Msg(N_("Dice: {a} and {d}"), {"a": dice.get("attacker"), "d": dice.get("defender")})
    if kind == "play_card":
        return Msg(N_("{name} plays {card}"), {"name": who, "card": text(f"card.{args.get('card')}")})
    if kind == "ability":
        return Msg(N_("{name} uses {tile}"), {"name": who, "tile": text(f"tile.{args.get('ability')}")})
    if kind == "transfer":
        return Msg(N_("{giver} gives {taker} {amount} {currency}"),
                   {"giver": names.get(args.get("giver"), ""), "taker": names.get(args.get("taker"), ""),
                    "amount": args.get("amount"), "currency": text(f"currency.{args.get('currency')}")})
    if kind == "adjust":
        return Msg(N_("Ledger correction for {name}: {what} {delta:+d} ({reason})"),
                   {"name": who, "what": text(f"currency.{args.get('what')}"), "delta": args.get("delta", 0),
                    "reason": args.get("reason", "")})
    return Msg(simple.get(str(kind), N_("Unknown action")))


def guide(state: Mapping, config: Mapping) -> Guide:
    """The pinned header: the decade with its event tiles and wars, who acts now (the bidder in an
    auction, the winner of an event tile deciding, else the player on turn) and every family's gold
    and influence."""
    figures = {p["colour"]: Msg(N_("{gold} g · {influence} inf."), {
        "gold": state["players"][p["colour"]]["gold"], "influence": state["players"][p["colour"]]["influence"]})
        for p in config["players"]}
    phase = state["phase"]
    roman = {1: "I", 2: "II", 3: "III"}[state["decade"]]
    if phase == "decade_end":
        return Guide(Msg(N_("End of decade {decade}: income"), {"decade": roman}), figures=figures,
                     screen=f"decade_end:{state['decade']}")
    if phase in ("final", "over"):
        return Guide(Msg(N_("Final scoring")), figures=figures, screen=phase)
    where = Msg(N_("Decade {decade} · event tiles left {events} of {all} · wars {wars} of {limit}"),
                {"decade": roman, "events": state["events_left"], "all": EVENTS_PER_DECADE, "wars": state["wars"],
                 "limit": war_limit(len(config["players"]))})
    if state["pending"]:
        return Guide(where, state["pending"]["player"], Msg(N_("Decides:")), figures, "pending")
    if state["auction"] and not auction.finished(state["auction"]):
        return Guide(where, state["auction"]["next"], Msg(N_("Bids:")), figures,
                     "war-auction" if state["war"] else "auction")
    if state["war"]:
        actor, role = war_actor(state, state["war"])
        return Guide(where, actor, role, figures, "war")
    return Guide(where, active_family(state, config), Msg(N_("On turn:")), figures, f"turn:{state['decade']}")


GAME = GameDef(
    id=ID, cli_name=CLI_NAME, min_players=3, max_players=6,
    new_config=new_config, setup_items=setup_items, initial_state=initial_state,
    reducers=REDUCERS, describe=describe, score_cli=score_cli, steps=steps, result=result,
    independent=frozenset({"adjust"}), guide=guide, moves=moves,
    personal=frozenset({"bid", "pass_bid", "veto", "bribe", "play_card", "ability"}),
    order=30,
    bgg_id=8045,  # checked: a stored play report naming its "BGG Id"
)

"""Village: the final scoring (FACTS §2.8; TV-V1): `final_scores`, `score_cli`, `result`."""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from ...engine import inputs
from ...engine.model import Msg, N_, listed
from ...engine.ranking import shared_places, tied_groups
from .box import (CHRONICLE, CHRONICLE_MANY, CHURCH, COINS, COUNCIL, CUSTOMER_PRESTIGE_MAX, CUSTOMERS, MEMBERS, TRAVEL,
                  TRAVEL_MARKERS, living)

def travel_points(cities: int) -> int:
    return TRAVEL[min(cities, len(TRAVEL) - 1)]


def chronicle_points(members: int) -> int:
    return CHRONICLE_MANY if members >= 5 else CHRONICLE.get(members, 0)


def final_scores(players: list[dict]) -> dict:
    """Final scoring (FACTS §2.8): prestige track + travel + council + church + chronicle +
    customers + coins; ties: more customers served, then more living family members."""
    rows, explain = [], []
    for p in players:
        council = sum(n * v for n, v in zip(p["council"], COUNCIL))
        church = sum(n * v for n, v in zip(p["church"], CHURCH))
        breakdown = {"track": p["track"], "travel": travel_points(p["cities_visited"]), "council": council,
                     "church": church, "chronicle": chronicle_points(p["chronicle"]),
                     "customers": sum(p["customers"]), "coins": p["coins"]}
        rows.append({"id": p["id"], "total": sum(breakdown.values()), "breakdown": breakdown,
                     "tie": (len(p["customers"]), p["living"])})
        who = p.get("name", p["id"])
        explain += [
            Msg(N_("{name}: prestige track {n}"), {"name": who, "n": p["track"]}),
            Msg(N_("{name}: travel, cities {cities} = {points}"), {"name": who, "cities": p["cities_visited"],
                                                                 "points": breakdown["travel"]}),
            Msg(N_("{name}: council, stages 1–4 {counts} × 0/2/4/6 = {points}"),
                {"name": who, "counts": "/".join(map(str, p["council"])), "points": council}),
            Msg(N_("{name}: church windows from the right {counts} × 2/3/4/6 = {points}"),
                {"name": who, "counts": "/".join(map(str, p["church"])), "points": church}),
            Msg(N_("{name}: chronicle, members {members} = {points}"),
                {"name": who, "members": p["chronicle"], "points": breakdown["chronicle"]}),
            Msg(N_("{name}: customers {list} = {points}"),
                {"name": who, "list": " + ".join(map(str, p["customers"])) or "0", "points": breakdown["customers"]}),
            Msg(N_("{name}: coins {n}"), {"name": who, "n": p["coins"]}),
        ]
    groups = tied_groups(rows, key=lambda r: (r["total"], *r["tie"]))
    for group, place in zip(groups, shared_places(groups)):
        for row in group:
            row["place"] = place
    by_total = tied_groups(rows, key=lambda r: r["total"])
    names = {p["id"]: p.get("name", p["id"]) for p in players}
    for group in by_total:
        if len(group) > 1:
            explain.append(Msg(N_("Tie on {n} points between {names}: more customers served wins, then more living "
                                  "family members ({details})."),
                               {"n": group[0]["total"], "names": listed([names[r["id"]] for r in group]),
                                "details": "; ".join(f"{names[r['id']]} {r['tie'][0]}/{r['tie'][1]}"
                                                     for r in group)}))
    return {"game": "village",
            "players": [{"id": r["id"], "total": r["total"], "place": r["place"], "breakdown": r["breakdown"]}
                        for r in rows],
            "winners": [r["id"] for r in rows if r["place"] == 1], "explain": explain}


def check_player(raw: Any, path: str) -> dict:
    """One player's final-scoring entry, checked against the box (FACTS §2.2)."""
    fields = ["id", "track", "cities_visited", "council", "church", "chronicle", "customers", "coins", "living"]
    inputs.obj(raw, path, required=fields)
    j = lambda key: inputs.join(path, key)  # noqa: E731
    p = {"id": raw["id"], "track": inputs.whole(raw["track"], j("track"), 0, 999),
         "cities_visited": inputs.whole(raw["cities_visited"], j("cities_visited"), 0, TRAVEL_MARKERS,
                                        N_("markers a family has for the travel map")),
         "chronicle": inputs.whole(raw["chronicle"], j("chronicle"), 0, MEMBERS, N_("family members per colour")),
         "coins": inputs.whole(raw["coins"], j("coins"), 0, COINS, N_("coins in the box")),
         "living": inputs.whole(raw["living"], j("living"), 0, MEMBERS, N_("family members per colour"))}
    for key in ("council", "church"):
        values = inputs.array(raw[key], j(key), 4, 4)
        p[key] = [inputs.whole(v, inputs.join(j(key), i), 0, MEMBERS, N_("family members per colour"))
                  for i, v in enumerate(values)]
    customers = inputs.array(raw["customers"], j("customers"), 0, CUSTOMERS)
    p["customers"] = [inputs.whole(v, inputs.join(j("customers"), i), 0, CUSTOMER_PRESTIGE_MAX,
                                   N_("the app's bound against typing errors: the sources do not list the "
                                      "customer tiles"))
                      for i, v in enumerate(customers)]
    if p["living"] + p["chronicle"] > MEMBERS:
        raise inputs.InputError(j("chronicle"), Msg(N_("living and chronicle members add up to more than the {n} "
                                                       "family members of a colour"), {"n": MEMBERS}))
    if sum(p["council"]) + sum(p["church"]) > p["living"]:
        raise inputs.InputError(j("council"), Msg(N_("more members on the council and the church windows than "
                                                     "living ones")))
    return p


def score_cli(data: Any) -> dict:
    """`companion score village`: check the input (scoring-contract.md) and score it."""
    _data, _options, players = inputs.common(data, "village", [], 1, 4)
    checked = [check_player(p, inputs.join("players", i)) for i, p in enumerate(players)]
    if sum(p["coins"] for p in checked) > COINS:
        raise inputs.InputError("players", Msg(N_("more coins in all than the box's {n}"), {"n": COINS}))
    if sum(len(p["customers"]) for p in checked) > CUSTOMERS:
        raise inputs.InputError("players", Msg(N_("more customers in all than the box's {n}"), {"n": CUSTOMERS}))
    return final_scores(checked)


def result(state: Mapping, config: Mapping) -> dict:
    """The final result of a session (the same scoring as `companion score village`)."""
    players = []
    for p in config["players"]:
        book, entry = state["players"][p["colour"]], state["final"][p["colour"]]
        players.append({"id": p["colour"], "name": p["name"], "track": state["scores"][p["colour"]],
                        "cities_visited": entry["cities_visited"], "council": entry["council"],
                        "church": book["windows"], "chronicle": book["chronicle"], "customers": book["customers"],
                        "coins": book["coins"], "living": living(book)})
    return final_scores(players)

#!/usr/bin/env bash
# Plays a whole 3-player royal-turf game with Hidden Bets over HTTP with curl: every bet
# is sealed and answered with a receipt (printed), each race's end reveals the bets, and
# at the end every reveal is checked against its commitment and the log is verified.
# Start the service first (`make run`); API defaults to http://127.0.0.1:5000.
set -euo pipefail
API=${API:-http://127.0.0.1:5000}
REFEREE=${REFEREE:-.venv/bin/referee}
NAMES=(Ann Ben Cat)

# jget PATH: read JSON on stdin, print the value at a dotted path (seats.0.token).
jget() {
  python3 -c 'import json, sys
d = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    d = d[int(k)] if k.isdigit() else d[k]
print(json.dumps(d) if isinstance(d, (dict, list)) else d)' "$1"
}
# turn: a spectator's view on stdin; prints the status and the seat to move.
turn() {
  python3 -c 'import json, sys
v = json.load(sys.stdin)
print(v["status"], (v["to_move"] or [""])[0])'
}
# choose: a seat's view on stdin; prints its version and one of its legal commands (a
# real player chooses here; this one picks at random, repeatably).
choose() {
  python3 -c 'import json, random, sys
v = json.load(sys.stdin)
print(v["version"], json.dumps(random.Random(v["version"]).choice(v["legal"])))'
}
# report NAMES...: a command's answer on stdin (an error stops the script); a sealed bet's
# receipt, and when the race ended in it, the bets its end revealed and what it paid.
report() {
  python3 -c 'import json, sys
names, answer = sys.argv[1:], json.load(sys.stdin)
if "error" in answer:
    sys.exit("refused: %s" % json.dumps(answer))
for e in answer["events"]:
    p = e.get("payload", {})
    if e["type"] == "OrdersSubmitted":  # shown to the seat that bet, and to nobody else
        chip = p["orders"]["chip"]
    elif e["type"] == "BetPlaced":
        print("race %s, round %s: %s bets %s on %s, sealed; receipt %s"
              % (p["race"], p["round"], names[p["seat"]], chip, p["horse"],
                 json.dumps(answer["receipt"])))
    elif e["type"] == "RaceEnded":
        print("race %(race)s ended: placings %(placings)s, last %(last)s, pace chip %(pace_chip)s" % p)
    elif e["type"] == "OrdersRevealed":
        print("  revealed (seq %s): %s put a %s-chip on %s"
              % (p["seq"], names[p["seat"]], p["orders"]["chip"], p["orders"]["horse"]))
    elif e["type"] == "RacePaid":
        print("  paid x%s: money now %s" % (p["multiplier"], dict(zip(names, p["money"]))))' "$@"
}

GAME=$(curl -sf -X POST "$API/games" -H 'Content-Type: application/json' \
  -d '{"ruleset": "royal-turf", "players": ["Ann", "Ben", "Cat"], "options": {"hidden_bets": true}}')
ID=$(echo "$GAME" | jget game_id)
TOKENS=()
for seat in 0 1 2; do TOKENS+=("$(echo "$GAME" | jget "seats.$seat.token")"); done
echo "game $ID, seed commitment $(echo "$GAME" | jget seed_commitment)"

while true; do
  VIEW=$(curl -sf "$API/games/$ID")                      # as a spectator
  read -r STATUS SEAT < <(echo "$VIEW" | turn)
  [ "$STATUS" = finished ] && break
  AUTH="Authorization: Bearer ${TOKENS[$SEAT]}"
  read -r VERSION MOVE < <(curl -sf -H "$AUTH" "$API/games/$ID" | choose)  # as the seat
  curl -s -X POST "$API/games/$ID/commands" -H "$AUTH" -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $ID-$VERSION" -d "$MOVE" | report "${NAMES[@]}"
done

echo "outcome: $(echo "$VIEW" | jget outcome)"
echo "seed:    $(echo "$VIEW" | jget seed)"
mkdir -p var
curl -sf "$API/games/$ID/log" > "var/$ID.jsonl"         # public once the game is over
# What any player can do with a receipt: recompute sha256(salt bytes + canonical orders)
# from each reveal and find it in the public commitment just after the sealed orders.
python3 -c 'import hashlib, json, sys
log = {e["seq"]: e for e in map(json.loads, open(sys.argv[1]))}
reveals = [e["payload"] for e in log.values() if e["type"] == "OrdersRevealed"]
for p in reveals:
    orders = json.dumps(p["orders"], sort_keys=True, separators=(",", ":")).encode()
    digest = hashlib.sha256(bytes.fromhex(p["salt"]) + orders).hexdigest()
    assert digest == log[p["seq"] + 1]["payload"]["commitment"], p
print(f"{len(reveals)} reveals match their commitments")' "var/$ID.jsonl"
"$REFEREE" replay verify "var/$ID.jsonl"

#!/usr/bin/env bash
# Plays a whole 3-player dark-horse-west game over HTTP with curl (the Game End token on 3
# so it ends in a few game turns), then verifies its log. Each seat places on Politics,
# Mayor or Builder when it can, else sends its first legal command; every step prints the
# event that says what happened. Start the service first (`make run`); API defaults to
# http://127.0.0.1:5000.
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

# pick: read a seat's view on stdin, print the command it sends.
pick() {
  python3 -c 'import json, sys
legal = json.load(sys.stdin)["legal"]
for action in ("politics", "mayor", "builder"):
    for c in legal:
        if c["type"] == "place" and c.get("action") == action:
            print(json.dumps(c)); sys.exit()
print(json.dumps(legal[0]))'
}

# told: read a command's answer on stdin, print its events in a line each.
told() {
  python3 -c 'import json, sys
for e in json.load(sys.stdin)["events"]:
    p = e.get("payload", {})
    shown = {k: v for k, v in p.items() if k not in ("layout", "deck", "breakdown")}
    print("  %4d %s %s" % (e["seq"], e["type"], json.dumps(shown)[:110]))'
}

GAME=$(curl -sf -X POST "$API/games" -H 'Content-Type: application/json' -d '{
  "ruleset": "dark-horse-west", "players": ["Ann", "Ben", "Cat"],
  "options": {"game_end_influence": 3}}')
ID=$(echo "$GAME" | jget game_id)
MODERATOR=$(echo "$GAME" | jget moderator_token)
TOKENS=()
for seat in 0 1 2; do TOKENS+=("$(echo "$GAME" | jget "seats.$seat.token")"); done
echo "game $ID, seed commitment $(echo "$GAME" | jget seed_commitment)"

while true; do
  VIEW=$(curl -sf "$API/games/$ID")                      # as a spectator
  [ "$(echo "$VIEW" | jget status)" = finished ] && break
  SEAT=$(echo "$VIEW" | jget to_move.0)
  AUTH="Authorization: Bearer ${TOKENS[$SEAT]}"
  MINE=$(curl -sf -H "$AUTH" "$API/games/$ID")           # as the seat to move
  MOVE=$(echo "$MINE" | pick)                            # a real player chooses here
  echo "${NAMES[$SEAT]}: $MOVE"
  curl -sf -X POST "$API/games/$ID/commands" -H "$AUTH" -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $ID-$(echo "$MINE" | jget version)" -d "$MOVE" | told
done

echo "outcome: $(echo "$VIEW" | jget outcome.scores) winners $(echo "$VIEW" | jget outcome.winners)"
echo "seed:    $(echo "$VIEW" | jget seed)"
mkdir -p var
curl -sf -H "Authorization: Bearer $MODERATOR" "$API/games/$ID/log" > "var/$ID.jsonl"
"$REFEREE" replay verify "var/$ID.jsonl"

#!/usr/bin/env bash
# Plays a whole galloping-horse game over HTTP with curl, then verifies its log.
# Start the service first (`make run`); API defaults to http://127.0.0.1:5000.
set -euo pipefail
API=${API:-http://127.0.0.1:5000}
REFEREE=${REFEREE:-.venv/bin/referee}

# jget PATH: read JSON on stdin, print the value at a dotted path (seats.0.token).
jget() {
  python3 -c 'import json, sys
d = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    d = d[int(k)] if k.isdigit() else d[k]
print(json.dumps(d) if isinstance(d, (dict, list)) else d)' "$1"
}

GAME=$(curl -sf -X POST "$API/games" -H 'Content-Type: application/json' \
  -d '{"ruleset": "galloping-horse", "players": ["Ann", "Ben", "Cat", "Dan"]}')
ID=$(echo "$GAME" | jget game_id)
MODERATOR=$(echo "$GAME" | jget moderator_token)
TOKENS=()
for seat in 0 1 2 3; do TOKENS+=("$(echo "$GAME" | jget "seats.$seat.token")"); done
echo "game $ID, seed commitment $(echo "$GAME" | jget seed_commitment)"

while true; do
  VIEW=$(curl -sf "$API/games/$ID")                      # as a spectator
  [ "$(echo "$VIEW" | jget status)" = finished ] && break
  SEAT=$(echo "$VIEW" | jget to_move.0)
  AUTH="Authorization: Bearer ${TOKENS[$SEAT]}"
  MINE=$(curl -sf -H "$AUTH" "$API/games/$ID")           # as the seat to move
  MOVE=$(echo "$MINE" | jget legal.0)                    # a real player chooses here
  curl -sf -X POST "$API/games/$ID/commands" -H "$AUTH" -H 'Content-Type: application/json' \
    -H "Idempotency-Key: $ID-$(echo "$MINE" | jget version)" -d "$MOVE" > /dev/null
done

echo "outcome: $(echo "$VIEW" | jget outcome)"
echo "seed:    $(echo "$VIEW" | jget seed)"
mkdir -p var
curl -sf -H "Authorization: Bearer $MODERATOR" "$API/games/$ID/log" > "var/$ID.jsonl"
"$REFEREE" replay verify "var/$ID.jsonl"

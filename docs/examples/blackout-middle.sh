#!/usr/bin/env bash
# Plays a 9-player blackout-middle game over HTTP with curl and short deadlines: each
# round every seat sends the first sealed orders its view offers (Ivy sits out round 2,
# so that round closes at its deadline), a worker resolves the round, and at the end
# the round-3 summary is printed for the forum and the log is verified.
# Start the service first (`make run`); API defaults to http://127.0.0.1:5000.
set -euo pipefail
API=${API:-http://127.0.0.1:5000}
REFEREE=${REFEREE:-.venv/bin/referee}
SECONDS_PER_ROUND=${SECONDS_PER_ROUND:-10}

# jget PATH: read JSON on stdin, print the value at a dotted path (seats.0.token).
jget() {
  python3 -c 'import json, sys
d = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    d = d[int(k)] if k.isdigit() else d[k]
print(json.dumps(d) if isinstance(d, (dict, list)) else d)' "$1"
}
# first_orders: the first submit_orders among a view's legal commands, else the first one.
first_orders() {
  python3 -c 'import json, sys
legal = json.load(sys.stdin)["legal"]
print(json.dumps(next((c for c in legal if c["type"] == "submit_orders"), legal[0])))'
}

PLAYERS='["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]'
OPTIONS="{\"round_seconds\": $SECONDS_PER_ROUND, \"first_round_seconds\": $SECONDS_PER_ROUND}"
GAME=$(curl -sf -X POST "$API/games" -H 'Content-Type: application/json' \
  -d "{\"ruleset\": \"blackout-middle\", \"players\": $PLAYERS, \"options\": $OPTIONS}")
ID=$(echo "$GAME" | jget game_id)
MODERATOR=$(echo "$GAME" | jget moderator_token)
TOKENS=()
for seat in 0 1 2 3 4 5 6 7 8; do TOKENS+=("$(echo "$GAME" | jget "seats.$seat.token")"); done
echo "game $ID, seed commitment $(echo "$GAME" | jget seed_commitment)"

send() {  # send TOKEN COMMAND: prints the answer; an error (a deadline just passed) is shown
  curl -s -X POST "$API/games/$ID/commands" -H "Authorization: Bearer $1" \
    -H 'Content-Type: application/json' -d "$2"
}

while true; do
  VIEW=$(curl -sf "$API/games/$ID")                      # as a spectator
  [ "$(echo "$VIEW" | jget status)" = finished ] && break
  ROUND=$(echo "$VIEW" | python3 -c 'import json, sys
r = json.load(sys.stdin)["round"]["open"]
print("" if r is None or r["closed"] else r["round"])')
  for actor in $(echo "$VIEW" | python3 -c 'import json, sys
print(" ".join(map(str, json.load(sys.stdin)["to_move"])))'); do
    if [ "$actor" = moderator ]; then TOKEN=$MODERATOR; else TOKEN=${TOKENS[$actor]}; fi
    [ "$actor" = 8 ] && [ "$ROUND" = 2 ] && continue   # Ivy misses round 2's deadline
    MINE=$(curl -sf -H "Authorization: Bearer $TOKEN" "$API/games/$ID")
    ANSWER=$(send "$TOKEN" "$(echo "$MINE" | first_orders)")
    case "$ANSWER" in *'"error"'*) echo "refused: $ANSWER"; continue ;; esac
    [ "$actor" = 0 ] && [ -n "$ROUND" ] && \
      echo "round $ROUND: Ann's receipt $(echo "$ANSWER" | jget receipt)"
  done
  sleep 0.5                                             # the worker resolves the round
done

echo "outcome: $(echo "$VIEW" | jget outcome)"
echo "--- round 3, for the forum ---"
curl -sf "$API/games/$ID/rounds/3/summary?format=markdown"
mkdir -p var
curl -sf "$API/games/$ID/log" > "var/$ID.jsonl"
"$REFEREE" replay verify "var/$ID.jsonl"

#!/usr/bin/env bash
# Plays a 9-player blackout-middle game over HTTP with curl. Each round every seat sends
# sealed orders chosen from the `legal` of its own view: the ones betting the most chips
# (legal bets are on horses of the seat's current space), with an ability and a space to
# watch where one is offered. Ivy sits out round 2, so that round closes at its deadline;
# every other round closes as soon as the last seat has sent. A worker resolves each
# round; the awards (a ToL to give, an Elimination vote to record) are sent from `legal`
# too. At the end the round-3 summary is printed for the forum and the log is verified.
# The script stops when the game ends, or with a message if the actors to move are
# offered nothing for a while.
# Start the service first (`make run`); API defaults to http://127.0.0.1:5000.
set -euo pipefail
API=${API:-http://127.0.0.1:5000}
REFEREE=${REFEREE:-.venv/bin/referee}
SECONDS_PER_ROUND=${SECONDS_PER_ROUND:-15}
SITS_OUT=2  # the round Ivy misses

# jget PATH: read JSON on stdin, print the value at a dotted path (seats.0.token).
jget() {
  python3 -c 'import json, sys
d = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    d = d[int(k)] if k.isdigit() else d[k]
print(json.dumps(d) if isinstance(d, (dict, list)) else d)' "$1"
}
# progress: the spectator's view on stdin; prints `finished` (or `abandoned`), else the
# number of the round taking orders (an empty line between rounds), then who is to move.
progress() {
  python3 -c 'import json, sys
v = json.load(sys.stdin)
r = (v.get("round") or {}).get("open")
print(v["status"] if v["status"] != "active" else "" if r is None or r["closed"] else r["round"])
print(" ".join(map(str, v["to_move"])))'
}
# choose: a JSON list of the actors' own views on stdin; prints one command per view (an
# empty line when its `legal` is empty). Sealed orders: the most chips bet, then an
# ability, then a space to watch, the seats spread over the orders that tie; else the
# first command offered (an award).
choose() {
  python3 -c 'import json, sys
def weight(command):
    o = command["orders"]
    return (sum(o["bets"].values()), o["ability"] is not None, o["spectate"] is not None)
for n, view in enumerate(json.load(sys.stdin)):
    legal = view["legal"]
    orders = [c for c in legal if c["type"] == "submit_orders"]
    best = [c for c in orders if weight(c) == max(map(weight, orders))]
    print(json.dumps(best[n % len(best)]) if best else json.dumps(legal[0]) if legal else "")'
}

PLAYERS='["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]'
OPTIONS="{\"round_seconds\": $SECONDS_PER_ROUND, \"first_round_seconds\": $SECONDS_PER_ROUND}"
GAME=$(curl -sf -X POST "$API/games" -H 'Content-Type: application/json' \
  -d "{\"ruleset\": \"blackout-middle\", \"players\": $PLAYERS, \"options\": $OPTIONS}")
ID=$(echo "$GAME" | jget game_id)
MODERATOR=$(echo "$GAME" | jget moderator_token)
mapfile -t TOKENS < <(echo "$GAME" | python3 -c 'import json, sys
for seat in json.load(sys.stdin)["seats"]:
    print(seat["token"])')
echo "game $ID, seed commitment $(echo "$GAME" | jget seed_commitment)"

token() {  # token ACTOR: a seat's token, or the moderator's
  if [ "$1" = moderator ]; then echo "$MODERATOR"; else echo "${TOKENS[$1]}"; fi
}
send() {  # send TOKEN COMMAND: prints the answer; an error (a deadline just passed) is shown
  curl -s -X POST "$API/games/$ID/commands" -H "Authorization: Bearer $1" \
    -H 'Content-Type: application/json' -d "$2"
}

IDLE=0  # polls in a row in which the actors to move were offered nothing
while true; do
  VIEW=$(curl -sf "$API/games/$ID")                       # as a spectator
  { read -r ROUND; read -r ACTORS; } < <(echo "$VIEW" | progress)
  if [ "$ROUND" = finished ] || [ "$ROUND" = abandoned ]; then break; fi
  MOVING=()
  for actor in $ACTORS; do
    [ "$actor" = 8 ] && [ "$ROUND" = "$SITS_OUT" ] && continue   # Ivy misses this round
    MOVING+=("$actor")
  done
  SENT=0
  if [ ${#MOVING[@]} -gt 0 ]; then
    VIEWS=()
    for actor in "${MOVING[@]}"; do
      VIEWS+=("$(curl -sf -H "Authorization: Bearer $(token "$actor")" "$API/games/$ID")")
    done
    mapfile -t COMMANDS < <(IFS=,; echo "[${VIEWS[*]}]" | choose)
    for i in "${!MOVING[@]}"; do
      actor=${MOVING[$i]}
      [ -z "${COMMANDS[$i]}" ] && continue                 # nothing offered to it now
      ANSWER=$(send "$(token "$actor")" "${COMMANDS[$i]}")
      case "$ANSWER" in *'"error"'*) echo "refused: $ANSWER"; continue ;; esac
      SENT=1
      [ "$actor" = 0 ] && [ -n "$ROUND" ] && \
        echo "round $ROUND: Ann's receipt $(echo "$ANSWER" | jget receipt)"
    done
  fi
  if [ "$SENT" = 0 ] && [ ${#MOVING[@]} -gt 0 ]; then
    IDLE=$((IDLE + 1))
    if [ "$IDLE" -ge 20 ]; then
      echo "stopped: ${MOVING[*]} to move and nothing offered to them; the game is not over"
      exit 1
    fi
  else
    IDLE=0
  fi
  [ "$SENT" = 0 ] && sleep 0.5                # a worker resolves the round (or its deadline)
done

echo "outcome: $(echo "$VIEW" | jget outcome)"
echo "--- round 3, for the forum ---"
curl -sf "$API/games/$ID/rounds/3/summary?format=markdown"
mkdir -p var
curl -sf "$API/games/$ID/log" > "var/$ID.jsonl"
"$REFEREE" replay verify "var/$ID.jsonl"

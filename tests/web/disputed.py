"""A dispute ruled amended while the game was played, and its fork played to the end:
the original's log is then public, and both are shown side by side."""


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play(client, game_id: str, tokens: list[str], turns: int) -> None:
    for _ in range(turns):
        shown = client.get(f"/games/{game_id}").get_json()
        if shown["status"] != "active":
            return
        seat = shown["to_move"][0]
        move = client.get(f"/games/{game_id}", headers=bearer(tokens[seat])).get_json()["legal"][0]
        sent = client.post(f"/games/{game_id}/commands", json=move, headers=bearer(tokens[seat]))
        assert sent.status_code == 201, sent.get_json()


def amended_and_finished(client, app, game) -> tuple[str, str, int]:
    """(original, fork, the seq of the play the ruling dropped)."""
    original, tokens = game.game_id, list(game.seats)
    play(client, original, tokens, 10)
    events = app.extensions["referee"].store.events(original)
    dropped = [e for e in events if e["type"] == "RaceCardPlayed"][5]["seq"]
    moderator = game.auth("moderator")
    body = {"claim": "a play was misread", "amendment": {"kind": "drop", "seq": dropped}}
    opened = client.post(f"/games/{original}/disputes", json=body, headers=moderator).get_json()
    ruling = {"ruling": "amended", "reason": "the card was never played"}
    ruled = client.post(
        f"/games/{original}/disputes/{opened['dispute']}/ruling", json=ruling, headers=moderator
    )
    assert ruled.status_code == 201, ruled.get_json()
    fork_id = ruled.get_json()["fork_game_id"]
    assert client.get(f"/replay/{original}").status_code == 403  # the fork is being played
    play(client, fork_id, tokens, 300)
    assert client.get(f"/games/{fork_id}").get_json()["status"] == "finished"
    return original, fork_id, dropped

// referee pages: small enhancements over plain forms (everything works without them).
// Live: the server says "changed" on /g/{id}/live; the page fetches its own view again.

const game = document.getElementById("game");

function showCopyButtons() {
  for (const button of document.querySelectorAll("button.copy")) {
    button.hidden = false;
    if (button.dataset.bound) continue;
    button.dataset.bound = "1";
    button.addEventListener("click", async () => {
      const source = document.getElementById(button.dataset.copy);
      const text = source.value ?? source.textContent;
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        source.select();
        document.execCommand("copy");
      }
      const was = button.textContent;
      button.textContent = "Copied";
      setTimeout(() => { button.textContent = was; }, 1500);
    });
  }
}

// a paused round or clock has no countdown: the page says the time it will have left
function left(seconds, passed) {
  if (seconds <= 0) return passed || "deadline passed";
  const d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600);
  const m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
  if (d > 0) return `${d} d ${h} h left`;
  if (h > 0) return `${h} h ${m} min left`;
  return `${m} min ${s} s left`;
}

function tick() {
  const now = Math.floor(Date.now() / 1000);
  for (const clock of document.querySelectorAll("[data-countdown]")) {
    clock.textContent = `(${left(Number(clock.dataset.countdown) - now, clock.dataset.passed)})`;
  }
}

// a region the player is editing (focus inside, or a changed form) is kept as it is
const edited = new WeakSet();
document.addEventListener("input", (e) => {
  const region = e.target.closest("[data-keep-when-edited]");
  if (region) edited.add(region);
});
document.addEventListener("submit", (e) => {
  const region = e.target.closest("[data-keep-when-edited]");
  if (region) edited.delete(region);
});

// what each rendering of a form draws anew: its idempotency key and its CSRF token
const FRESH = "input[name=key], input[name=csrf_token]";

// two renderings of a region alike but for what each draws anew
function same(shown, incoming) {
  const bare = (region) => {
    const copy = region.cloneNode(true);
    for (const input of copy.querySelectorAll(FRESH)) input.remove();
    return copy;
  };
  return bare(shown).isEqualNode(bare(incoming));
}

// a region kept on the page takes the fresh key and token of its new rendering
function freshen(kept, incoming) {
  const fresh = incoming.querySelectorAll(FRESH);
  kept.querySelectorAll(FRESH).forEach((input, n) => {
    if (fresh[n] && fresh[n].name === input.name) input.value = fresh[n].value;
  });
}

async function refresh() {
  const answer = await fetch(game.dataset.part, { credentials: "same-origin", cache: "no-store" });
  if (!answer.ok) return;
  const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
  const live = document.getElementById("live");
  const next = fresh.getElementById("live");
  if (!live || !next) return;
  // moves made in quick succession (bots') overlap their fetches: an answer that comes
  // after a newer one was shown is dropped, or the page would stay behind the game
  if (Number(next.dataset.version) < Number(live.dataset.version)) return;
  // a region kept as it is: one being edited, and one the news did not change, so that
  // a button pressed while the news arrives is the button the page still shows (a press
  // on a button replaced between mouse down and up would be lost)
  const keep = new Map();
  for (const region of live.querySelectorAll("[data-region]")) {
    const incoming = next.querySelector(`#${region.id}`);
    if (edited.has(region) || region.contains(document.activeElement) && region.id === "orders"
        || incoming && same(region, incoming)) {
      keep.set(region.id, region);
    }
  }
  for (const [id, region] of keep) {
    const incoming = next.querySelector(`#${id}`);
    if (!incoming) continue;
    freshen(region, incoming);
    incoming.replaceWith(region);
  }
  live.replaceWith(next);
  showCopyButtons();
  tick();
}

function listen() {
  if (!game || !window.EventSource) return;
  const live = document.getElementById("live");
  const after = live ? live.dataset.version : "0";
  const source = new EventSource(`${game.dataset.live}?after=${after}`);
  let pending = null;
  source.addEventListener("changed", () => {
    clearTimeout(pending);
    pending = setTimeout(refresh, 50);
  });
}

// a choice list marks its choice on the board as the player moves through it
document.addEventListener("change", async (e) => {
  const select = e.target.closest("select[data-board]");
  if (!select) return;
  const url = `${select.dataset.board}?command=${encodeURIComponent(select.value)}`;
  const answer = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  const board = document.querySelector("#board svg");
  if (!answer.ok || !board) return;
  const drawn = new DOMParser().parseFromString(await answer.text(), "image/svg+xml");
  board.replaceWith(document.importNode(drawn.documentElement, true));
});

showCopyButtons();
tick();
setInterval(tick, 1000);
listen();

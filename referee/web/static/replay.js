// The replay page: keys, play/pause and the scrubber step without reloading the page.
// Every control is a plain link or form first; this only fetches the changed part.

const theatre = document.getElementById("theatre");

function keyName(e) {
  if (e.key === " ") return "Space";
  return (e.shiftKey && e.key.startsWith("Arrow") ? "Shift+" : "") + e.key;
}

let timer = null;
let run = 0; // which run of play a step belongs to: a step fetched before a pause is dropped

async function go(href, { push = true, playing } = {}) {
  const url = new URL(href, location.href);
  const part = new URL(theatre.dataset.part, location.href);
  part.search = url.search;
  const answer = await fetch(part, { credentials: "same-origin" });
  if (playing !== undefined && playing !== run) return;
  if (!answer.ok) { location.href = url; return; }
  const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
  if (playing !== undefined && playing !== run) return;
  const next = fresh.getElementById("scene");
  if (!next) return;
  const keepFocus = document.activeElement && document.activeElement.id;
  document.getElementById("scene").replaceWith(next);
  if (push) history.replaceState(null, "", url);
  document.title = document.title.replace(/seq \d+/, `seq ${next.dataset.at}`);
  setUp();
  if (keepFocus && document.getElementById(keepFocus)) document.getElementById(keepFocus).focus();
  theatre.dispatchEvent(new CustomEvent("stepped", { detail: next.dataset.at }));
}

function stopPlaying() {
  clearInterval(timer);
  timer = null;
  run += 1;
  const button = document.getElementById("play");
  if (button) { button.textContent = "▶ Play"; button.setAttribute("aria-pressed", "false"); }
}

function playStep() {
  const unit = document.getElementById("unit").value;
  const link = theatre.querySelector(`a[data-key="${{ next: "ArrowRight", next_move: "Shift+ArrowRight", next_chapter: "PageDown" }[unit]}"]`);
  if (!link) { stopPlaying(); return; }
  go(link.href, { playing: run });
}

function togglePlay() {
  if (timer) { stopPlaying(); return; }
  const button = document.getElementById("play");
  button.textContent = "⏸ Pause";
  button.setAttribute("aria-pressed", "true");
  timer = setInterval(playStep, Number(document.getElementById("speed").value));
  playStep();
}

function setUp() {
  const scene = document.getElementById("scene");
  scene.querySelector(".play").hidden = false;
  document.getElementById("play").addEventListener("click", togglePlay);
  document.getElementById("speed").addEventListener("change", () => { if (timer) { stopPlaying(); togglePlay(); } });
  const range = document.getElementById("at");
  range.addEventListener("change", () => go(`?at=${range.value}&as=${scene.dataset.as}`));
  for (const link of scene.querySelectorAll(".steps a, .feed a")) {
    link.addEventListener("click", (e) => { e.preventDefault(); go(link.href); });
  }
}

document.addEventListener("keydown", (e) => {
  if (!theatre || e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
  const name = keyName(e);
  if (name === "Space") { e.preventDefault(); togglePlay(); return; }
  if (name === "n") {
    stopPlaying();
    const seat = document.getElementById("of-seat");
    const option = seat.options[seat.selectedIndex];
    if (option && !option.disabled) go(`?at=${option.value}&as=${document.getElementById("scene").dataset.as}`);
    return;
  }
  const link = theatre.querySelector(`a[data-key="${name}"]`);
  if (link) { e.preventDefault(); stopPlaying(); go(link.href); }
});

if (theatre) setUp();

// Short wooden knocks made on the fly with Web Audio (no sound files): one for a removal or
// a single capture, a quick run for a multi-jump. Off when the player mutes them.

const MUTED = "konane.muted";
let context = null;

/** Whether sounds are off. */
export function muted() {
  return localStorage.getItem(MUTED) === "1";
}

/** Turns sounds off or on, remembered. */
export function setMuted(off) {
  localStorage.setItem(MUTED, off ? "1" : "0");
}

function knock(at, pitch) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = "triangle";
  osc.frequency.setValueAtTime(pitch, at);
  osc.frequency.exponentialRampToValueAtTime(pitch / 2, at + 0.08);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.35, at + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
  osc.connect(gain).connect(context.destination);
  osc.start(at);
  osc.stop(at + 0.13);
}

/** Plays the sound of a move that captures `captures` stones (0 for a removal). */
export function play(captures) {
  // Browsers refuse sound before the player has touched the page (and say so in the console).
  if (muted() || typeof AudioContext === "undefined" || !navigator.userActivation?.hasBeenActive) return;
  context ??= new AudioContext();
  if (context.state === "suspended") context.resume().catch(() => {});
  const now = context.currentTime + 0.01;
  if (captures === 0) return knock(now, 330);
  for (let i = 0; i < captures; i++) knock(now + i * 0.11, 520 + 60 * i);
}

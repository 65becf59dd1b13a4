// Move sounds, made with WebAudio (no files): your turn, a claim or declaration, the end of the
// deal. Off unless the "Move sounds" setting is on; the audio starts on that setting's click.

const TUNES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
  claim: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.2]],
  end: [[392, 0, 0.5], [494, 0, 0.5], [587, 0, 0.5], [784, 0.15, 0.45]],
};

export class Sounds {
  constructor() {
    this.on = false;
    this.context = null;
    this.played = [];
  }

  // The audio may only start from a click or a key press: until one comes, sounds wait.
  enable(on) {
    this.on = on;
    if (!on || this.context) return;
    if (navigator.userActivation && navigator.userActivation.isActive) this.unlock();
    else {
      const unlock = () => this.unlock();
      document.addEventListener("pointerdown", unlock, { once: true });
      document.addEventListener("keydown", unlock, { once: true });
    }
  }

  unlock() {
    if (!this.on || this.context || typeof AudioContext === "undefined") return;
    try {
      this.context = new AudioContext();
    } catch {
      this.context = null;
    }
  }

  play(name) {
    if (!this.on || !TUNES[name]) return;
    this.played.push(name); // the last sounds played, for a look in the browser's tools
    if (this.played.length > 20) this.played.shift();
    document.body.dataset.sounds = this.played.join(" ");
    const audio = this.context;
    if (!audio) return;
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    for (const [frequency, start, length] of TUNES[name]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "triangle";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + start);
      tone.stop(now + start + length + 0.05);
    }
  }
}

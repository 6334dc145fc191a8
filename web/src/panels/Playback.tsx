// Live mode: play, pause, restart and speed. Playback advances the engine by a fixed step
// per animation frame (speed / 60 s of simulated time).
import { useApp, useAppState } from '../app/AppContext';
import { SPEEDS } from '../state/controller';
import { durationOf } from '../scenario/paths';

/** Playback buttons, speed and position. */
export function Playback() {
  const { controller } = useApp();
  const playing = useAppState((s) => s.playing);
  const live = useAppState((s) => s.live);
  const time = useAppState((s) => s.time);
  const speed = useAppState((s) => s.speed);
  const duration = useAppState((s) => durationOf(s.scenario));
  const position = live ? time : duration;
  return (
    <div className="playback" role="group" aria-label="Playback">
      <button
        type="button"
        className="primary"
        onClick={() => (playing ? controller.pause() : controller.play())}
        aria-label={playing ? 'Pause' : live ? 'Resume playback' : 'Play from the start'}
      >
        {playing ? '❚❚ Pause' : '▶ Play'}
      </button>
      <button type="button" onClick={() => controller.restart()} aria-label="Restart playback from t = 0">
        ↺ Restart
      </button>
      <label className="speed">
        <span>Speed</span>
        <select value={String(speed)} onChange={(e) => controller.setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={String(s)}>
              {s}×
            </option>
          ))}
        </select>
      </label>
      <div className="position">
        <progress max={duration || 1} value={position} aria-label="Simulated time" />
        <output aria-live="off">
          {position.toFixed(2)} / {duration} s{live && !playing ? ' (paused)' : ''}
        </output>
      </div>
    </div>
  );
}

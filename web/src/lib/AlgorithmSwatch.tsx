// An algorithm's identity as drawn in the plots: its colour, dash and marker on a short line.
import type { AlgorithmName } from '../scenario/algorithms';
import { algStyle, markerPath, type AlgStyle } from './styles';

/** A `width` × `height` px swatch of the algorithm's line with its marker in the middle. */
export function AlgorithmSwatch({
  algorithm,
  width,
  height = 14,
  strokeWidth = 2.5,
  className,
  style,
}: {
  algorithm: AlgorithmName;
  /** Another look than the algorithm's (a flow of a competition). */
  style?: AlgStyle;
  width: number;
  height?: number;
  strokeWidth?: number;
  className?: string;
}) {
  const st = style ?? algStyle(algorithm);
  const half = width / 2;
  return (
    <svg
      width={width}
      height={height}
      viewBox={`${-half} ${-height / 2} ${width} ${height}`}
      aria-hidden="true"
      className={className}
    >
      <line
        x1={1 - half}
        x2={half - 1}
        stroke={st.color}
        strokeWidth={strokeWidth}
        strokeDasharray={st.dash.join(' ')}
      />
      <path d={markerPath(st.marker, 4)} fill={st.color} stroke="#fff" />
    </svg>
  );
}

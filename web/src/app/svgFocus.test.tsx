// @vitest-environment jsdom
// An SVG button rendered by the page's runtime takes the keyboard's focus (svgFocus.ts).
import { afterEach, describe, expect, it } from 'vitest';
import './svgFocus';
import { cleanup, render } from '../test/render';

afterEach(cleanup);

describe('tabIndex on SVG elements', () => {
  it('is written as the tabindex attribute, so the element is focusable', () => {
    const { container } = render(
      <svg>
        <g role="button" tabIndex={0} aria-label="a point">
          <circle r={5} />
        </g>
      </svg>,
    );
    const g = container.querySelector('g') as SVGGElement;
    expect(g.getAttribute('tabindex')).toBe('0');
    g.focus();
    expect(document.activeElement).toBe(g);
  });

  it('leaves HTML elements as they were', () => {
    const { container } = render(<div tabIndex={-1}>x</div>);
    const div = container.querySelector('div') as HTMLDivElement;
    expect(div.tabIndex).toBe(-1);
    expect(div.getAttribute('tabindex')).toBe('-1');
  });
});

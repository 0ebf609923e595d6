import { render, screen } from '@testing-library/react';
import { QRCode } from 'antd';
import { describe, expect, it } from 'vitest';
import { renderInConsole } from '../../../test-providers.tsx';
import { VisitPassCard, windowText } from './visit-pass-card.tsx';

const pass = { visitId: '5f0c2a8e-7d1b-4c35-9a64-2b1e0d9c7f31', visitorName: 'Wang Fang', hostName: 'Li Lei', startTime: '2026-12-03 09:00:00', endTime: '2026-12-03 11:30:00', doors: ['Front gate', 'Lab 2'] };

/** The modules of a QR code as drawn: the path of its SVG. */
const modulesOf = (root: Element) => [...root.querySelectorAll('svg path')].map((p) => p.getAttribute('d')).join('|');

describe('the visitor pass', () => {
  it('shows name, host, window and doors, and a QR code that encodes the visit id', () => {
    const { container } = renderInConsole(<VisitPassCard pass={pass} />);
    expect(screen.getByText('Wang Fang')).toBeTruthy();
    expect(screen.getByText('Li Lei')).toBeTruthy();
    expect(screen.getByText('2026-12-03 09:00 – 11:30')).toBeTruthy();
    expect(screen.getByText('Front gate、Lab 2')).toBeTruthy();
    const drawn = modulesOf(container.querySelector('[data-testid="visit-pass"]')!);
    expect(drawn).not.toBe('');
    // the same modules as a QR code of the visit id alone, and not those of any other text
    const ofId = render(<QRCode type="svg" value={pass.visitId} size={152} bordered={false} errorLevel="M" />);
    expect(drawn).toBe(modulesOf(ofId.container));
    const ofOther = render(<QRCode type="svg" value={`${pass.visitId.slice(0, -1)}0`} size={152} bordered={false} errorLevel="M" />);
    expect(drawn).not.toBe(modulesOf(ofOther.container));
  });

  it('writes the end of a window without its date on the same day', () => {
    expect(windowText('2026-12-03 09:00:00', '2026-12-04 10:00:00')).toBe('2026-12-03 09:00 – 2026-12-04 10:00');
  });
});

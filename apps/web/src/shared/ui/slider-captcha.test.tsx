import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { SliderCaptcha } from './slider-captcha.tsx';

function Harness({ onChange }: { onChange: (passed: boolean) => void }) {
  const [passed, setPassed] = useState(false);
  return (
    <SliderCaptcha
      value={passed}
      onChange={(next) => {
        setPassed(next);
        onChange(next);
      }}
    />
  );
}

describe('SliderCaptcha', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en-US');
  });

  it('passes with the keyboard (arrows or End) and says so', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const slider = screen.getByRole('slider', { name: 'Slider verification' });
    expect(slider.getAttribute('aria-valuetext')).toBe('Drag the slider to the end');
    fireEvent.keyDown(slider, { key: 'End' });
    expect(onChange).toHaveBeenCalledWith(true);
    expect(slider.getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByText('Verified')).toBeTruthy();
  });

  it('does not take a press and release without movement', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const slider = screen.getByRole('slider');
    slider.setPointerCapture = () => undefined;
    fireEvent.pointerDown(slider, { clientX: 0, pointerId: 1 });
    fireEvent.pointerUp(slider, { clientX: 500, pointerId: 1 });
    expect(onChange).not.toHaveBeenCalledWith(true);
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
  });
});

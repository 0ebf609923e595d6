import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LightIcon } from './light-icon.tsx';
import styles from './slider-captcha.module.css';

export interface SliderCaptchaProps {
  /** true once the handle reached the end */
  value?: boolean;
  onChange?: (passed: boolean) => void;
}

const HANDLE = 40;
/** a drag that jumps to the end in one event or faster than a hand moves is not taken */
const MIN_MOVES = 3;
const MIN_DRAG_MS = 120;

/**
 * 'Drag the handle to the end' (SPEC section 2, shared widgets). A client-side check that a person moved the
 * handle, in addition to the server-checked text captcha; the keyboard (arrows, End) works too, for accessibility.
 */
export function SliderCaptcha({ value = false, onChange }: SliderCaptchaProps) {
  const { t } = useTranslation();
  const track = useRef<HTMLDivElement>(null);
  const drag = useRef<{ startX: number; startedAt: number; moves: number } | null>(null);
  const [offset, setOffset] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = track.current;
    if (!element) return;
    if (typeof ResizeObserver === 'undefined') {
      setWidth(element.clientWidth);
      return;
    }
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const end = Math.max(0, width - HANDLE);
  // a reset form (value false again) puts the handle back
  const shown = value ? end : Math.min(offset, end);
  const percent = value ? 100 : Math.round((shown / (end || 1)) * 100);

  function finish(passed: boolean) {
    setDragging(false);
    setOffset(0);
    if (passed !== value) onChange?.(passed);
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (value) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX - shown, startedAt: performance.now(), moves: 0 };
    setDragging(true);
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!drag.current) return;
    drag.current.moves += 1;
    setOffset(Math.min(end, Math.max(0, event.clientX - drag.current.startX)));
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    const current = drag.current;
    drag.current = null;
    if (!current) return;
    const reached = event.clientX - current.startX >= end - 2;
    finish(reached && current.moves >= MIN_MOVES && performance.now() - current.startedAt >= MIN_DRAG_MS);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (value) return;
    const step = end / 10;
    let next: number | null = null;
    if (event.key === 'ArrowRight' || event.key === 'ArrowUp') next = shown + step;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowDown') next = shown - step;
    else if (event.key === 'End') next = end;
    else if (event.key === 'Home') next = 0;
    if (next === null) return;
    event.preventDefault();
    const clamped = Math.min(end, Math.max(0, next));
    if (clamped >= end - 1) finish(true);
    else setOffset(clamped);
  }

  return (
    <div ref={track} className={`${styles.track} ${value ? styles.passed : ''}`} data-testid="slider-captcha">
      <div className={styles.fill} style={{ width: shown + HANDLE / 2, transition: dragging ? 'none' : undefined }} aria-hidden />
      <span className={styles.text} aria-hidden>
        {value ? t('sliderCaptcha.passed') : t('sliderCaptcha.hint')}
      </span>
      <div
        role="slider"
        tabIndex={0}
        aria-label={t('sliderCaptcha.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={value ? t('sliderCaptcha.passed') : t('sliderCaptcha.hint')}
        className={styles.handle}
        style={{ transform: `translateX(${shown}px)`, transition: dragging ? 'none' : undefined }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          drag.current = null;
          finish(false);
        }}
        onKeyDown={onKeyDown}
      >
        <LightIcon name={value ? 'check' : 'doubleRight'} />
      </div>
    </div>
  );
}

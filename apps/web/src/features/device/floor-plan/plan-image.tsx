import { staticFileUrl } from '@isps/contract';
import { forwardRef, useState, type ReactNode } from 'react';
import { API_BASE } from '../../../shared/api/index.ts';

/**
 * A plan image at the width of its container with its markers over it: a marker's place is a fraction of the image's
 * width and height, so it stays on its spot at every size the image is shown at.
 */
export const PlanImage = forwardRef<HTMLDivElement, { image: string; alt: string; children?: ReactNode; testId?: string }>(function PlanImage({ image, alt, children, testId }, ref) {
  // a tall or wide plan is shown whole: no higher than half the window
  const [aspect, setAspect] = useState<number | null>(null);
  return (
    <div ref={ref} data-testid={testId} style={{ position: 'relative', width: '100%', maxWidth: aspect ? `calc(${aspect.toFixed(4)} * 50vh)` : undefined, lineHeight: 0, userSelect: 'none', border: '1px solid rgba(5, 5, 5, 0.15)', borderRadius: 6, background: '#fafafa' }}>
      <img
        src={staticFileUrl(API_BASE, image)}
        alt={alt}
        draggable={false}
        onLoad={(event) => {
          const img = event.currentTarget;
          if (img.naturalWidth > 0 && img.naturalHeight > 0) setAspect(img.naturalWidth / img.naturalHeight);
        }}
        style={{ display: 'block', width: '100%', height: 'auto', pointerEvents: 'none', borderRadius: 6 }}
      />
      {children}
    </div>
  );
});

/** Where a marker sits: its centre on the place. */
export const markerPlace = (x: number, y: number) => ({ position: 'absolute' as const, left: `${x * 100}%`, top: `${y * 100}%`, transform: 'translate(-50%, -50%)', lineHeight: 1.2 });

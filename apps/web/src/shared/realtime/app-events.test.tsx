import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useAppEvent, type AppEvents } from './app-events.ts';
import { dispatchRealtimeMessage } from './use-realtime-channel.tsx';

/** A page that follows door states, as a door panel will. */
function DoorPanel({ seen }: { seen: (payload: AppEvents['doorState']) => void }) {
  const [last, setLast] = useState('none');
  useAppEvent('doorState', (payload) => {
    seen(payload);
    setLast(JSON.stringify(payload.data));
  });
  return <p data-testid="door">{last}</p>;
}

describe('doorState pushes (SPEC section 4, DESIGN section 6)', () => {
  it('reach a mounted subscriber with the payload as the server sent it, and stop when it unmounts', () => {
    const seen = vi.fn<(payload: AppEvents['doorState']) => void>();
    const showDevice = vi.fn();
    const view = render(<DoorPanel seen={seen} />);
    act(() => dispatchRealtimeMessage({ cmd: 'doorState', msgId: 'ISPS-GATE-0001', msgTxt: 'East gate', data: { door: 2, state: 'open' } }, showDevice));
    expect(seen).toHaveBeenCalledWith({ msgId: 'ISPS-GATE-0001', msgTxt: 'East gate', data: { door: 2, state: 'open' } });
    expect(screen.getByTestId('door').textContent).toBe('{"door":2,"state":"open"}');
    // a door state is no device notification
    expect(showDevice).not.toHaveBeenCalled();

    view.unmount();
    dispatchRealtimeMessage({ cmd: 'doorState', data: { door: 2, state: 'closed' } }, showDevice);
    expect(seen).toHaveBeenCalledTimes(1);
  });
});

import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IconByName, iconComponentName } from './icon-by-name.tsx';

describe('IconByName', () => {
  it('reads antd 3 style and component names', () => {
    expect(iconComponentName('dashboard')).toBe('DashboardOutlined');
    expect(iconComponentName('clock-circle-o')).toBe('ClockCircleOutlined');
    expect(iconComponentName('SettingFilled')).toBe('SettingFilled');
    expect(iconComponentName('Home')).toBe('HomeOutlined');
  });

  it('loads the named icon and nothing for an unknown name', async () => {
    const { container } = render(<IconByName name="dashboard" />);
    await waitFor(() => expect(container.querySelector('.anticon-dashboard')).not.toBeNull());
    const filled = render(<IconByName name="SettingFilled" />);
    await waitFor(() => expect(filled.container.querySelector('.anticon-setting')).not.toBeNull());
    const unknown = render(<IconByName name="no-such-icon" />);
    expect(unknown.container.innerHTML).toBe('');
  });
});

import { Grid } from 'antd';

/** A wide drawer on desktop; the whole width on a phone, where a 736 px panel would be cut off. */
export function useDrawerSize(): 'large' | '100%' {
  const screens = Grid.useBreakpoint();
  return screens.md === false ? '100%' : 'large';
}

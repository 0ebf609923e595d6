import type { VisitorCategory } from '@isps/contract';
import type { MessageKey } from '../../locales/en-US.ts';

export const categoryKey: Record<VisitorCategory, MessageKey> = {
  general: 'visitor.categoryGeneral',
  police: 'visitor.categoryPolice',
  armedPolice: 'visitor.categoryArmedPolice',
  contractor: 'visitor.categoryContractor',
};

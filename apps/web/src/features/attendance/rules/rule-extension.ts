import type { CrudExtension } from '../../../shared/crud/index.ts';
import { SuggestDatesButton } from './suggest-dates-button.tsx';

/** Both rule screens: "Suggest dates for <year>" beside the first festival. */
export const ruleExtension: CrudExtension = { FormAddons: { festNewYear: SuggestDatesButton } };

import { isStrongPassword } from '@isps/contract';
import type { FormRule } from 'antd';

/** A form rule: the value, when given, must be a strong password (SPEC section 5). */
export const strongPasswordRule = (message: string): FormRule => ({
  validator: async (_rule, value: string | undefined) => {
    if (value && !isStrongPassword(value)) throw new Error(message);
  },
});

/** A form rule for a confirmation field: the value, when given, must equal the form's `field` (by default `password`). */
export const sameAsRule =
  (message: string, field = 'password'): FormRule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: string | undefined) => {
      if (value && value !== getFieldValue(field)) throw new Error(message);
    },
  });

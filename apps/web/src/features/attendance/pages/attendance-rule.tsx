import { attendanceRuleEntity } from '@isps/contract';
import { CrudScreen } from '../../../shared/crud/index.ts';
import { ruleExtension } from '../rules/rule-extension.ts';

/** The system area's attendance rules: the same rules as the device area's, under the system screen's permissions. */
export default function AttendanceRulePage() {
  return <CrudScreen entity={attendanceRuleEntity} extension={ruleExtension} />;
}

import { oaRuleEntity } from '@isps/contract';
import { CrudScreen } from '../../../shared/crud/index.ts';
import { ruleExtension } from '../rules/rule-extension.ts';

/** The device area's attendance rules: the declared screen, with the festival dates suggested for a year. */
export default function OaRulePage() {
  return <CrudScreen entity={oaRuleEntity} extension={ruleExtension} />;
}

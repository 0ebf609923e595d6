/** Dictionaries the spec names; item text is English, the console shows it as stored. */
export interface DictionaryDefinition {
  code: string;
  name: string;
  items: ReadonlyArray<readonly [value: string, text: string]>;
}

export const dictionaryDefinition: readonly DictionaryDefinition[] = [
  { code: 'sex', name: 'Gender', items: [['1', 'Male'], ['2', 'Female']] },
  { code: 'user_status', name: 'User status', items: [['1', 'Normal'], ['2', 'Frozen']] },
  { code: 'priority', name: 'Priority', items: [['L', 'Low'], ['M', 'Medium'], ['H', 'High']] },
  { code: 'device_status', name: 'Device network status', items: [['1', 'Online'], ['0', 'Offline']] },
  { code: 'valid_status', name: 'Valid status', items: [['1', 'Valid'], ['0', 'Invalid']] },
  { code: 'yn', name: 'Yes or no', items: [['1', 'Yes'], ['0', 'No']] },
  { code: 'role_type', name: 'Role type', items: [['1', 'User'], ['2', 'Device administrator']] },
  { code: 'device_type_status', name: 'Device type status', items: [['1', 'Enabled'], ['2', 'Disabled']] },
  { code: 'route_status', name: 'Patrol route status', items: [['1', 'Enabled'], ['0', 'Disabled']] },
  { code: 'send_status', name: 'Send status', items: [['0', 'Not sent'], ['1', 'Sent'], ['2', 'Failed']] },
  { code: 'msg_type', name: 'Message type', items: [['1', 'Announcement'], ['2', 'System message']] },
  { code: 'cabinet_status', name: 'Cabinet status', items: [['0', 'Unassigned'], ['1', 'Assigned'], ['2', 'Assignable']] },
  { code: 'cabinet_attribute', name: 'Cabinet attribute', items: [['1', 'One person'], ['2', 'Several people']] },
  {
    code: 'device_system',
    name: 'Device system',
    items: [['1', 'AB door'], ['2', 'Access control'], ['3', 'Storage'], ['4', 'Earthquake alarm']],
  },
  { code: 'device_kind', name: 'Device kind', items: [['1', 'Controller'], ['2', 'Camera'], ['3', 'Vein device']] },
  { code: 'org_type', name: 'Group type', items: [['1', 'Company'], ['2', 'Department'], ['3', 'Post']] },
  { code: 'job_status', name: 'Scheduled job status', items: [['0', 'Normal'], ['-1', 'Stopped']] },
  {
    code: 'device_role_type',
    name: 'Device role type',
    items: [['1', 'Door access'], ['2', 'Device manager'], ['3', 'Attendance'], ['4', 'Patrol']],
  },
];

import type { EntityDeclaration } from './declaration.ts';
import { deviceEntities } from './device-entities.ts';
import { systemEntities } from './system-entities.ts';
import { visitorEntities } from './visitor-entities.ts';
import { doorEntities } from './door-entities.ts';
import { deviceRoleEntity } from './device-role-entities.ts';
import { peopleEntities } from './people-entities.ts';
import { accessEventEntities } from './access-event-entities.ts';
import { softUpdateEntities } from './soft-update-entities.ts';
import { deviceExtraEntities } from './device-extra-entities.ts';
import { fileEntities } from './file-entities.ts';
import { storageEntities } from './storage-entities.ts';
import { keyEntities } from './key-entities.ts';
import { doorScheduleEntities } from './door-schedule-entities.ts';
import { patrolEntities } from './patrol-entities.ts';
import { attendanceEntities } from './attendance-entities.ts';
import { orderEntities } from './order-entities.ts';
import { webhookEntities } from './webhook-entities.ts';

/** Every declared screen of the product, for the console's page registry and the declaration tests. */
export const entityDeclarations: readonly EntityDeclaration[] = [...systemEntities, ...visitorEntities, ...deviceEntities, ...doorEntities, deviceRoleEntity, ...peopleEntities, ...accessEventEntities, ...softUpdateEntities, ...deviceExtraEntities, ...storageEntities, ...keyEntities, ...patrolEntities, ...attendanceEntities, ...doorScheduleEntities, ...fileEntities, ...webhookEntities, ...orderEntities];

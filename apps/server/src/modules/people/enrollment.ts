import { PeoplePath, peopleEntity, permissionCode, readIdCardQuery } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { callerOf } from '../../platform/access.ts';
import { palmEnrollmentRoutes, readIdCardAt } from '../../platform/capture.ts';
import type { RegisteredEntity } from '../../platform/crud/index.ts';

const tags = ['people'];

/**
 * Palm-vein enrollment and ID card reading of people at a capture device (docs/device-protocol.md, "Capture
 * device"); the device side, shared with the visitors' desk, is platform/capture.ts.
 */
export function enrollmentRoutes(app: FastifyInstance, people: RegisteredEntity): void {
  palmEnrollmentRoutes(app, {
    holder: 'people',
    tags,
    paths: { enroll: PeoplePath.enroll, enrollStatus: PeoplePath.enrollStatus, enrollCancel: PeoplePath.enrollCancel },
    permission: permissionCode(peopleEntity, 'enroll'),
    find: async (caller, id) => {
      const person = await people.findById(caller, id);
      return person ? { id: String(person.id), name: String(person.name), tenantId: (person.tenant_id as string | null) ?? null } : undefined;
    },
  });

  app.get(
    PeoplePath.readIdCard,
    { schema: { tags, summary: 'Read the ID card on the capture device', querystring: readIdCardQuery }, config: { permission: permissionCode(peopleEntity, 'readIdCard') } },
    async (request, reply) => {
      const idCard = await readIdCardAt(app, reply, callerOf(request), (request.query as z.infer<typeof readIdCardQuery>).deviceId, peopleEntity.title);
      return reply.ok({ idCard }, 'people.idCardRead');
    },
  );
}

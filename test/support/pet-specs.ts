/** A small pet API before and after a change, for `import openapi --update`: v2 adds, changes and drops operations. */
const response = {
  '200': {
    description: 'ok',
    content: {
      'application/json': { schema: { type: 'object', properties: { id: { type: 'string', maxLength: 40 } } } },
    },
  },
};
const idParam = (description: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', maxLength: 40 },
});
const op = (operationId: string, summary: string, description: string, extra: Record<string, unknown> = {}) => ({
  operationId,
  summary,
  description,
  responses: response,
  ...extra,
});

export function petSpecV1(): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1.0.0' },
    servers: [{ url: 'https://pets.example.com' }],
    paths: {
      '/pets': {
        get: op('listPets', 'List pets', 'Every pet in the shop, newest first, as a list of pet objects.'),
        post: op('createPet', 'Create a pet', 'Add a pet to the shop and return it with the id it was given.'),
      },
      '/pets/{id}': {
        get: op('getPet', 'Get a pet', 'One pet by its id, with its name and status.', {
          parameters: [idParam('The pet id')],
        }),
        delete: op('deletePet', 'Delete a pet', 'Remove a pet from the shop for good; it cannot be undone.', {
          parameters: [idParam('The pet id')],
        }),
      },
      '/owners': { get: op('listOwners', 'List owners', 'Every owner of a pet in the shop, by name.') },
      '/store/inventory': { get: op('getInventory', 'Get the inventory', 'Counts of pets by status, as a map.') },
    },
  };
}

/** v1 with `/pets/{id}/photos` added, getPet, listPets and listOwners changed, inventory and deletePet dropped. */
export function petSpecV2(): Record<string, unknown> {
  const spec = petSpecV1();
  const paths = spec.paths as Record<string, Record<string, Record<string, unknown>>>;
  const pets = paths['/pets'] as Record<string, Record<string, unknown>>;
  const pet = paths['/pets/{id}'] as Record<string, Record<string, unknown>>;
  (pets.get as Record<string, unknown>).description = 'Every pet in the shop, newest first, 50 to a page.';
  (pet.get as Record<string, unknown>).description = 'One pet by its id, with its name, status and photo URLs.';
  delete pet.delete;
  (paths['/owners']?.get as Record<string, unknown>).summary = 'List the owners';
  delete paths['/store/inventory'];
  paths['/pets/{id}/photos'] = {
    get: op('listPhotos', 'List photos of a pet', 'The photo URLs of one pet, largest first.', {
      parameters: [idParam('The pet id')],
    }),
  };
  return spec;
}

// The Petstore of petstore-bindings.test.ts: which operations take which credential, the mock API's answers, and
// each operation's arguments with the request the mock must see.

export const apiKeyOnly = new Set(['get_pet_by_id', 'get_inventory']);
export const petstoreAuth = new Set([
  'add_pet',
  'update_pet',
  'find_pets_by_status',
  'find_pets_by_tags',
  'update_pet_with_form',
  'delete_pet',
  'upload_file',
]);
export const stateKey = 'k'.repeat(40);

export const pet = { id: 7, name: 'Rex', photoUrls: ['https://example.test/rex.png'], status: 'available' };
export const order = { id: 3, petId: 7, quantity: 1, status: 'placed', complete: false };
export const user = { id: 1, username: 'ana', email: 'ana@example.test' };

/** The mock API's answers, by method and path. */
export function answer(method: string, pathname: string): { status: number; body: unknown } {
  if (pathname === '/v2/pet/findByStatus' || pathname === '/v2/pet/findByTags') return { status: 200, body: [pet] };
  if (pathname === '/v2/pet/404') return { status: 404, body: { code: 1, type: 'error', message: 'Pet not found' } };
  if (pathname === '/v2/pet/500') return { status: 500, body: { message: 'boom' } };
  if (/^\/v2\/pet\/\d+\/uploadImage$/.test(pathname)) return { status: 200, body: { code: 200, message: 'ok' } };
  if (method === 'GET' && /^\/v2\/pet\/\d+$/.test(pathname)) return { status: 200, body: pet };
  if (pathname === '/v2/store/inventory') return { status: 200, body: { available: 4 } };
  if (method !== 'DELETE' && pathname.startsWith('/v2/store/order')) return { status: 200, body: order };
  if (pathname === '/v2/user/login') return { status: 200, body: 'session-1' };
  if (method === 'GET' && pathname === '/v2/user/ana') return { status: 200, body: user };
  return { status: 200, body: {} };
}

export type Body = string | { readonly parts: [string, string][] };
/** Each operation: the tool, its arguments, and the request the mock must see (method, URL, body). */
export const operations: readonly [string, Record<string, unknown>, string, string, Body][] = [
  ['add_pet', { body: pet }, 'POST', '/v2/pet', JSON.stringify(pet)],
  ['update_pet', { body: pet }, 'PUT', '/v2/pet', JSON.stringify(pet)],
  [
    'find_pets_by_status',
    { status: ['available', 'sold'] },
    'GET',
    '/v2/pet/findByStatus?status=available&status=sold',
    '',
  ],
  ['find_pets_by_tags', { tags: ['cute'] }, 'GET', '/v2/pet/findByTags?tags=cute', ''],
  ['get_pet_by_id', { petId: 7 }, 'GET', '/v2/pet/7', ''],
  [
    'update_pet_with_form',
    { petId: 7, body: { name: 'Rex II', status: 'sold' } },
    'POST',
    '/v2/pet/7',
    'name=Rex+II&status=sold',
  ],
  ['delete_pet', { petId: 7 }, 'DELETE', '/v2/pet/7', ''],
  [
    'upload_file',
    // The file (formData type: file) is base64 text, whose bytes are the part.
    {
      petId: 7,
      body: { additionalMetadata: 'side', file: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff]).toString('base64') },
    },
    'POST',
    '/v2/pet/7/uploadImage',
    {
      parts: [
        ['additionalMetadata', 'side'],
        ['file', 'file:application/octet-stream:89504e4700ff'],
      ],
    },
  ],
  ['get_inventory', {}, 'GET', '/v2/store/inventory', ''],
  ['create_place_order', { body: order }, 'POST', '/v2/store/order', JSON.stringify(order)],
  ['get_order_by_id', { orderId: 3 }, 'GET', '/v2/store/order/3', ''],
  ['delete_order', { orderId: 3 }, 'DELETE', '/v2/store/order/3', ''],
  ['create_user', { body: user }, 'POST', '/v2/user', JSON.stringify(user)],
  ['create_users_with_array_input', { body: [user] }, 'POST', '/v2/user/createWithArray', JSON.stringify([user])],
  ['create_users_with_list_input', { body: [user] }, 'POST', '/v2/user/createWithList', JSON.stringify([user])],
  // The query `password` carries a credential: the import makes it a config variable the model never sees.
  ['list_login_user', { username: 'ana' }, 'GET', '/v2/user/login?username=ana&password=p%20w', ''],
  ['list_logout_user', {}, 'GET', '/v2/user/logout', ''],
  ['get_user_by_name', { username: 'ana' }, 'GET', '/v2/user/ana', ''],
  ['update_user', { username: 'ana', body: user }, 'PUT', '/v2/user/ana', JSON.stringify(user)],
  ['delete_user', { username: 'ana' }, 'DELETE', '/v2/user/ana', ''],
];

/** The Content-Type an upstream request with `body` carries. */
export function contentType(body: Body): string | undefined {
  if (body === '') return undefined;
  if (typeof body !== 'string') return 'multipart/form-data';
  return body.startsWith('{') || body.startsWith('[') ? 'application/json' : 'application/x-www-form-urlencoded';
}

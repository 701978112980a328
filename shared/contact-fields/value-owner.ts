/**
 * The attribute holding a contact field value's (field, owner) pair, `<field id>:contact:<number>`
 * or `<field id>:lead:<id>`: unique per company, held by a lookup item written with the value
 * (the resource's `unique`, shared/contact-fields/contact-fields-resource.ts). In a module of its own, so the
 * cleanup in the lead runner names the lookup without loading the resource declarations.
 */
export const FIELD_OWNER = 'field_owner';

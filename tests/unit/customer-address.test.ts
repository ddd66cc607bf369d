import { describe, expect, it } from 'vitest';
import type { RepCustomer } from '../../src/contracts/field-sales';
import { trimmedAddress } from '../../src/contracts/form-schemas';
import { shippingAddressOf } from '../../src/features/field-sales/customer-address';

/** A customer as the rep's device keeps it; its people and address as told. */
function customer(fields: Partial<RepCustomer> = {}): RepCustomer {
  return {
    id: 7,
    name: 'Salon Aurora',
    status: 'APPROVED',
    taxNumber: 'RO1234567',
    registrationNumber: 'J12/345/2020',
    email: 'aurora@example.com',
    phone: '+40 264 555 123',
    address: 'Strada Florilor 12',
    city: 'Cluj-Napoca',
    state: 'Cluj',
    postalCode: '400001',
    country: 'Romania',
    website: '',
    contacts: [
      { id: 1, firstName: 'Mara', lastName: 'Stan', email: 'mara@example.com' },
      { id: 2, firstName: 'Ioana', lastName: 'Pop', email: 'ioana@example.com' },
    ],
    lastOrderAt: null,
    openOrders: 0,
    ...fields,
  };
}

describe('shippingAddressOf', () => {
  it('takes the first person’s name and the company’s address and phone', () => {
    expect(shippingAddressOf(customer())).toEqual({
      firstName: 'Mara',
      lastName: 'Stan',
      street: 'Strada Florilor 12',
      city: 'Cluj-Napoca',
      zipCode: '400001',
      country: 'Romania',
      phone: '+40 264 555 123',
    });
  });

  it('leaves the name for the rep to fill when the customer has no people', () => {
    expect(shippingAddressOf(customer({ contacts: [] }))).toMatchObject({
      firstName: '',
      lastName: '',
    });
  });
});

describe('trimmedAddress', () => {
  it('drops the spaces around every field', () => {
    expect(
      trimmedAddress({
        firstName: ' Mara ',
        lastName: 'Stan\n',
        street: '  Strada Teiului 7',
        city: 'Brașov ',
        zipCode: ' 500001',
        country: 'Romania',
        phone: ' +40 268 555 777 ',
      }),
    ).toEqual({
      firstName: 'Mara',
      lastName: 'Stan',
      street: 'Strada Teiului 7',
      city: 'Brașov',
      zipCode: '500001',
      country: 'Romania',
      phone: '+40 268 555 777',
    });
  });
});

/**
 * The delivery address of an order a rep takes (docs/product.md#field-sales): it starts
 * from the customer's record as kept on the device — its first person's name, the
 * company's address and phone — and the rep corrects it with the customer.
 */
import type { RepCustomer } from '../../contracts/field-sales';
import type { ShippingAddress } from '../../contracts/orders';

export function shippingAddressOf(customer: RepCustomer): ShippingAddress {
  const [person] = customer.contacts;
  return {
    firstName: person?.firstName ?? '',
    lastName: person?.lastName ?? '',
    street: customer.address,
    city: customer.city,
    zipCode: customer.postalCode,
    country: customer.country,
    phone: customer.phone,
  };
}

/**
 * Whether a rep may take an order for the customer: an approved one, or one the maker has
 * not verified yet, whose order waits as "Awaiting verification" until staff decide. Not a
 * rejected or suspended one (the server answers 409 CUSTOMER_NOT_APPROVED).
 */
export const canOrderFor = (customer: Pick<RepCustomer, 'status'>): boolean =>
  customer.status === 'APPROVED' || customer.status === 'PENDING';

/**
 * Tables of the portal's database, as the query builder sees them. The migrations in
 * ./migrations create them; this file only describes them, and must agree with them.
 */
import { customType, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const millis = (name: string) =>
  timestamp(name, { withTimezone: true, precision: 3, mode: 'date' }).notNull().defaultNow();

export const categories = pgTable('categories', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  position: integer('position').notNull().default(0),
});

export const products = pgTable('products', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  sku: text('sku').notNull().unique(),
  name: text('name').notNull(),
  shortDescription: text('short_description').notNull().default(''),
  description: text('description').notNull().default(''),
  categoryId: integer('category_id')
    .notNull()
    .references(() => categories.id),
  price: numeric('price', { precision: 10, scale: 2 }).notNull(),
  stock: integer('stock').notNull().default(0),
  tags: text('tags').array().notNull().default([]),
  images: text('images').array().notNull().default([]),
  searchText: text('search_text').notNull(),
  nameKey: text('name_key').notNull(),
  createdAt: millis('created_at'),
  updatedAt: millis('updated_at'),
});

/** Files served under /uploads: product images now, more kinds later. */
export const media = pgTable('media', {
  path: text('path').primaryKey(),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  createdAt: millis('created_at'),
});

export const newsletterSubscriptions = pgTable('newsletter_subscriptions', {
  email: text('email').primaryKey(),
  locale: text('locale').notNull(),
  createdAt: millis('created_at'),
});

/** Which migration files have been applied (created by the migration runner itself). */
export const schemaMigrations = pgTable('schema_migrations', {
  version: text('version').primaryKey(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});

export const schema = { categories, products, media, newsletterSubscriptions };

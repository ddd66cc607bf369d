/**
 * The demo catalogue: the maker's professional bio-natural hair-care range as a salon
 * would order it. Prices are wholesale, in euro, before VAT.
 */
import type { PackShape } from './product-art.js';

export interface SeedCategory {
  slug: string;
  name: string;
  shape: PackShape;
  hue: number;
}

export interface SeedProduct {
  sku: string;
  name: string;
  category: string;
  price: number;
  stock: number;
  tags: string[];
  shortDescription: string;
  description: string;
  /** How many pictures the product has: front, back label, texture. */
  images: 1 | 2 | 3;
  /** Days before the seeding that the product joined the catalogue. */
  addedDaysAgo: number;
}

export const SEED_CATEGORIES: SeedCategory[] = [
  { slug: 'shampoos', name: 'Shampoos', shape: 'bottle', hue: 150 },
  { slug: 'conditioners', name: 'Conditioners', shape: 'tube', hue: 200 },
  { slug: 'masks', name: 'Masks', shape: 'jar', hue: 280 },
  { slug: 'treatments', name: 'Treatments', shape: 'dropper', hue: 30 },
  { slug: 'styling', name: 'Styling', shape: 'spray', hue: 340 },
  { slug: 'tea-tree', name: 'Tea Tree Line', shape: 'bottle', hue: 110 },
  { slug: 'kits', name: 'Kits', shape: 'box', hue: 45 },
];

const p = (
  sku: string,
  name: string,
  category: string,
  price: number,
  stock: number,
  tags: string[],
  shortDescription: string,
  description: string,
  images: 1 | 2 | 3,
  addedDaysAgo: number,
): SeedProduct => ({
  sku,
  name,
  category,
  price,
  stock,
  tags,
  shortDescription,
  description,
  images,
  addedDaysAgo,
});

export const SEED_PRODUCTS: SeedProduct[] = [
  p('SH-HYD-1000', 'Hydra Balance Shampoo 1000 ml', 'shampoos', 18.9, 140, ['hydration', 'dry hair', 'salon size'], 'Sulphate-free cleansing for dry and thirsty hair.', 'A gentle coco-glucoside wash with aloe vera juice and organic glycerin that cleans without stripping. Restores softness and shine to dry, porous lengths. Salon back-bar size with pump.', 3, 420),
  p('SH-HYD-250', 'Hydra Balance Shampoo 250 ml', 'shampoos', 7.4, 260, ['hydration', 'dry hair', 'retail'], 'Retail size of the sulphate-free moisturising wash.', 'The Hydra Balance formula in a retail bottle for your clients to continue the salon ritual at home. Aloe vera, glycerin and panthenol.', 1, 410),
  p('SH-VOL-1000', 'Volume Lift Shampoo 1000 ml', 'shampoos', 19.5, 85, ['volume', 'fine hair', 'salon size'], 'Weightless body for fine and flat hair.', 'Rice protein and organic bamboo extract lift the root and thicken every strand without silicones. Rinses clean for voluminous blow-dries.', 2, 380),
  p('SH-COL-1000', 'Color Shield Shampoo 1000 ml', 'shampoos', 21.0, 120, ['colour care', 'UV filter', 'salon size'], 'Keeps cosmetic colour bright wash after wash.', 'A low-pH, sulphate-free wash with sunflower seed extract and pomegranate that protects colour from fading. Ideal after every colour service.', 3, 365),
  p('SH-COL-250', 'Color Shield Shampoo 250 ml', 'shampoos', 8.2, 0, ['colour care', 'retail'], 'Retail size of the colour-protecting wash.', 'Colour Shield in a retail bottle: sunflower and pomegranate keep colour vivid at home between salon visits.', 1, 360),
  p('SH-SIL-1000', 'Silver Glow Shampoo 1000 ml', 'shampoos', 22.4, 60, ['blonde', 'anti-yellow', 'salon size'], 'Violet pigments neutralise brassy tones in blonde and grey hair.', 'Natural violet pigments and chamomile extract cancel yellow reflections on blonde, highlighted and white hair while keeping it soft.', 2, 300),
  p('SH-ANT-1000', 'Anti-Dandruff Clarifying Shampoo 1000 ml', 'shampoos', 20.8, 45, ['scalp', 'dandruff', 'salon size'], 'Clears flakes and soothes an itchy scalp.', 'Piroctone olamine with rosemary and sage essential oils rebalances the scalp and removes flakes from the first wash. Nickel-tested.', 1, 250),
  p('SH-DET-1000', 'Deep Detox Shampoo 1000 ml', 'shampoos', 19.9, 70, ['detox', 'pre-treatment', 'salon size'], 'Removes build-up before colour, perm or treatment.', 'Green clay and lemon extract lift residue, hard-water minerals and styling build-up so that every following treatment works at its best.', 1, 120),
  p('CO-HYD-1000', 'Hydra Balance Conditioner 1000 ml', 'conditioners', 19.9, 110, ['hydration', 'dry hair', 'salon size'], 'Detangles and moisturises without weighing down.', 'Shea butter, aloe vera and organic jojoba oil restore elasticity to dry hair. Rinse-out conditioner for every day.', 2, 415),
  p('CO-VOL-1000', 'Volume Lift Conditioner 1000 ml', 'conditioners', 20.5, 75, ['volume', 'fine hair', 'salon size'], 'Light detangling for fine hair.', 'A featherweight rinse-out with rice protein that detangles fine hair and leaves it full of body.', 1, 375),
  p('CO-COL-1000', 'Color Shield Conditioner 1000 ml', 'conditioners', 22.0, 90, ['colour care', 'salon size'], 'Seals the cuticle to lock in colour.', 'Acidic conditioner with pomegranate and argan oil that closes the cuticle after colouring and keeps reflections deep and shiny.', 2, 360),
  p('CO-SIL-250', 'Silver Glow Conditioner 250 ml', 'conditioners', 9.5, 35, ['blonde', 'anti-yellow', 'retail'], 'Violet conditioner for cool, bright blondes.', 'Completes the Silver Glow ritual: violet pigments tone while babassu oil softens lightened hair.', 1, 290),
  p('CO-LEA-200', 'Leave-In Detangling Milk 200 ml', 'conditioners', 11.9, 150, ['leave-in', 'heat protection', 'detangling'], 'Spray-on milk that detangles and protects from heat up to 200 °C.', 'A light leave-in emulsion with oat protein and sweet almond oil. Detangles wet hair instantly, tames frizz and protects from the heat of dryers and irons.', 3, 200),
  p('CO-CUR-1000', 'Curl Define Conditioner 1000 ml', 'conditioners', 21.5, 0, ['curls', 'salon size'], 'Defines curls and waves with lasting softness.', 'Flaxseed gel and coconut oil hydrate curls and shape them into defined, springy spirals without crunch.', 1, 95),
  p('MA-REP-500', 'Deep Repair Mask 500 ml', 'masks', 26.5, 80, ['repair', 'damaged hair', 'salon size'], 'Intensive reconstruction for damaged and over-processed hair.', 'Hydrolysed wheat protein, keratin-like amino acids and murumuru butter rebuild weakened fibres. Leave on for 5–10 minutes under heat for salon results.', 3, 400),
  p('MA-HYD-500', 'Hydra Balance Mask 500 ml', 'masks', 24.9, 95, ['hydration', 'dry hair'], 'A drink of moisture for dry lengths.', 'Aloe vera, hyaluronic acid and shea butter saturate dry hair with moisture. Leaves hair supple and shiny without heaviness.', 2, 390),
  p('MA-COL-500', 'Color Shield Mask 500 ml', 'masks', 25.9, 12, ['colour care'], 'Weekly care that keeps colour glossy.', 'Rich mask with argan and pomegranate for coloured hair. Use once a week to keep colour vivid and the cuticle sealed.', 1, 355),
  p('MA-ARG-250', 'Argan Gold Mask 250 ml', 'masks', 16.4, 0, ['nourishing', 'argan'], 'Nourishing mask with organic Moroccan argan oil.', 'Cold-pressed organic argan oil and vitamin E nourish coarse, dull hair and give it a golden shine.', 2, 150),
  p('MA-CAC-500', 'Cacao & Shea Nourishing Mask 500 ml', 'masks', 27.3, 40, ['nourishing', 'thick hair'], 'Rich butter mask for thick, coarse and curly hair.', 'Raw cacao butter and shea melt into thick hair to soften, define and protect it from breakage.', 1, 60),
  p('MA-BLO-500', 'Blonde Rescue Bond Mask 500 ml', 'masks', 29.9, 55, ['blonde', 'bond repair'], 'Bond-strengthening care after lightening.', 'Citric acid complex and quinoa protein strengthen hair after bleaching and highlights and reduce breakage by half.', 2, 30),
  p('TR-SER-50', 'Split Ends Serum 50 ml', 'treatments', 14.9, 130, ['split ends', 'shine'], 'Seals split ends and adds mirror shine — silicone-free.', 'A dry oil blend of abyssinian, argan and camellia oils that seals split ends and polishes lengths without silicones.', 3, 330),
  p('TR-LOT-8', 'Anti Hair Loss Lotion 8 × 10 ml', 'treatments', 32.0, 65, ['hair loss', 'scalp', 'ampoules'], 'Ampoule cure that strengthens the root and slows hair loss.', 'Eight single-dose vials with caffeine, biotin and organic nettle extract. Massage into the scalp after washing, three times a week.', 2, 310),
  p('TR-SCA-100', 'Soothing Scalp Elixir 100 ml', 'treatments', 17.8, 50, ['scalp', 'sensitive'], 'Calms sensitive and irritated scalps.', 'Chamomile, calendula and bisabolol calm redness and itching after colour or chemical services.', 1, 220),
  p('TR-KER-100', 'Keratin Smooth Treatment 100 ml', 'treatments', 38.5, 25, ['smoothing', 'frizz', 'professional use'], 'Professional smoothing service without formaldehyde.', 'Plant amino acids and organic linseed smooth frizzy hair for up to eight weeks. Formaldehyde-free; for professional use only.', 2, 180),
  p('TR-OIL-100', 'Argan Gold Oil 100 ml', 'treatments', 21.9, 0, ['argan', 'shine', 'nourishing'], 'Pure organic argan oil for lengths and ends.', 'One hundred percent cold-pressed organic argan oil. A few drops tame frizz, nourish dry ends and add shine.', 3, 140),
  p('TR-PRE-150', 'Pre-Colour Protector 150 ml', 'treatments', 15.6, 88, ['colour service', 'professional use'], 'Evens porosity before colouring for uniform results.', 'Spray before colour to even out porosity and protect sensitised ends for a uniform, long-lasting result.', 1, 45),
  p('ST-GEL-150', 'Strong Hold Eco Gel 150 ml', 'styling', 9.9, 170, ['hold', 'gel'], 'Firm, flake-free hold from plant polymers.', 'A clear gel with flaxseed and organic aloe that gives firm, brushable hold without flakes or alcohol.', 1, 280),
  p('ST-WAX-100', 'Matte Texture Wax 100 ml', 'styling', 12.5, 95, ['texture', 'matte', 'men'], 'Pliable matte finish for short styles.', 'Beeswax-free plant wax with kaolin clay for separated texture and a natural matte finish. Washes out easily.', 2, 260),
  p('ST-SPR-300', 'Flexible Hairspray 300 ml', 'styling', 11.2, 140, ['hold', 'finishing'], 'Brushable, humidity-resistant finishing spray.', 'Natural resin hairspray that holds styles all day, resists humidity and brushes out without residue.', 1, 240),
  p('ST-MOU-250', 'Volume Mousse 250 ml', 'styling', 10.8, 0, ['volume', 'blow-dry'], 'Airy mousse for lift at the roots.', 'Rice protein mousse for body and memory in blow-dries; no sticky feel.', 1, 230),
  p('ST-CRE-150', 'Crème Brillance Curl Cream 150 ml', 'styling', 13.4, 60, ['curls', 'definition'], 'Defines curls with soft, touchable hold.', 'A rich crème with shea butter and flaxseed that defines curls and waves, fights frizz and leaves a soft, glossy finish.', 2, 110),
  p('ST-SEA-200', 'Sea Salt Texturising Spray 200 ml', 'styling', 10.5, 115, ['texture', 'beach waves'], 'Effortless beach texture with Dead Sea salt.', 'Dead Sea salt and aloe vera build texture and grip for undone waves without drying the hair.', 1, 20),
  p('ST-HEA-200', 'Thermal Protection Spray 200 ml', 'styling', 12.9, 100, ['heat protection', 'blow-dry'], 'Protects from straighteners and dryers up to 230 °C.', 'Plant-based thermal shield with white tea and panthenol. Protects from heat, reduces frizz and adds shine.', 2, 8),
  p('TT-SHA-1000', 'Tea Tree Purifying Shampoo 1000 ml', 'tea-tree', 20.4, 150, ['tea tree', 'purifying', 'oily scalp', 'salon size'], 'The first step of the Tea Tree purifying ritual.', 'Australian tea tree oil, peppermint and lavender purify an oily scalp and leave a long-lasting fresh feeling. The cornerstone of the Tea Tree purifying ritual.', 3, 430),
  p('TT-SHA-250', 'Tea Tree Purifying Shampoo 250 ml', 'tea-tree', 7.9, 210, ['tea tree', 'purifying', 'retail'], 'Retail size of the purifying wash.', 'The Tea Tree purifying shampoo in a retail bottle to continue the ritual at home.', 1, 425),
  p('TT-CON-1000', 'Tea Tree Balancing Conditioner 1000 ml', 'tea-tree', 21.6, 90, ['tea tree', 'balancing', 'salon size'], 'Light conditioner that refreshes without greasiness.', 'Tea tree and peppermint conditioner that detangles and balances without weighing down oily roots.', 2, 420),
  p('TT-SCR-200', 'Tea Tree Scalp Scrub 200 ml', 'tea-tree', 16.9, 0, ['tea tree', 'scalp', 'exfoliating'], 'Exfoliating scalp scrub with crushed apricot kernels.', 'Gently exfoliates the scalp and removes dead cells and residue. Use once a week before the purifying shampoo.', 2, 170),
  p('TT-TON-100', 'Tea Tree Refreshing Tonic 100 ml', 'tea-tree', 14.2, 75, ['tea tree', 'scalp', 'leave-in'], 'Leave-in scalp tonic for a cool, clean feeling.', 'A no-rinse tonic with tea tree, witch hazel and menthol that refreshes the scalp between washes.', 1, 90),
  p('TT-MAS-500', 'Tea Tree Clay Mask 500 ml', 'tea-tree', 23.8, 30, ['tea tree', 'clay', 'purifying'], 'Purifying clay mask for the scalp and lengths.', 'Green and white clays with tea tree oil absorb excess sebum and leave hair light and bouncy.', 1, 15),
  p('KT-TEA-3', 'Tea Tree Ritual Kit', 'kits', 42.0, 40, ['tea tree', 'gift', 'ritual'], 'Shampoo, conditioner and tonic of the Tea Tree purifying ritual.', 'The complete Tea Tree purifying ritual in one box: purifying shampoo, balancing conditioner and refreshing tonic, with a step-by-step leaflet for your clients.', 3, 160),
  p('KT-REP-3', 'Deep Repair Salon Kit', 'kits', 61.5, 18, ['repair', 'salon kit'], 'Back-bar kit for the in-salon repair service.', 'Hydra Balance shampoo, Deep Repair mask and Split Ends serum in salon sizes, with treatment cards and a service protocol for your team.', 2, 100),
  p('KT-COL-3', 'Color Care Home Kit', 'kits', 24.9, 0, ['colour care', 'gift', 'retail'], 'Retail trio to keep colour vivid at home.', 'Colour Shield shampoo, conditioner and a travel-size mask in a gift box for clients after every colour service.', 1, 75),
  p('KT-STA-6', 'Salon Starter Kit', 'kits', 149.0, 10, ['starter', 'salon kit', 'bestseller'], 'Everything a new partner salon needs to begin.', 'Six back-bar products from the shampoo, conditioner, mask and Tea Tree lines, a marketing kit with posters and price cards, and a training session for your team.', 3, 5),
  p('KT-TRA-4', 'Travel Minis Set', 'kits', 18.5, 120, ['travel', 'gift', 'retail'], 'Four 50 ml minis for clients on the go.', 'Hydra Balance shampoo and conditioner, Split Ends serum and Tea Tree tonic in airline-friendly 50 ml bottles.', 1, 2),
];

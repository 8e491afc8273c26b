/**
 * The synthetic dataset's menu: the ingredient table (each ingredient's allergens and diet flags)
 * and the cuisine table (weight, halal and kosher shares, venue words, dishes with their core
 * ingredients, pantry), checked when the module loads (every ingredient known; the cuisine keys
 * are vocabulary.ts's CUISINES, in order). generator.ts draws restaurants and dishes from it.
 */
import { CUISINES } from './vocabulary.ts';

/** One-letter codes of ALLERGENS used in the ingredient table, same order. */
const ALLERGEN_CODES = 'GMENPSFCLYUZWK';


/**
 * Ingredients by tag string: upper-case letters are allergens (ALLERGEN_CODES),
 * lower-case are flags: a = meat, p = pork, c = high-carb (not keto),
 * o = other animal product (not vegan), x = alcohol.
 */
const INGREDIENT_GROUPS: Record<string, string> = {
  a: 'chicken,beef,lamb,turkey,duck,veal,goat,oxtail',
  ap: 'pork,bacon,ham,pancetta,chorizo,prosciutto,pepperoni,sausage,serrano ham',
  F: 'salmon,tuna,cod,anchovies,fish sauce,bonito flakes,dashi,catfish,sea bass,salt cod',
  FG: 'surimi,fish cake',
  C: 'shrimp,crab,lobster,crawfish,shrimp paste,green curry paste,massaman paste',
  CF: 'kimchi',
  L: 'clams,mussels,squid,octopus,oysters,scallops,conch,oyster sauce',
  M: 'mozzarella,parmesan,cheddar,butter,cream,milk,buttermilk,yogurt,feta,paneer,ricotta,cotija,ghee,sour cream,' +
    'goat cheese,gruyère,blue cheese,mascarpone,halloumi,tzatziki,monterey jack,manchego,swiss cheese,niter kibbeh,ayib,akkawi',
  Mc: 'chocolate',
  E: 'egg,aioli',
  EU: 'mayonnaise,coleslaw',
  EM: 'hollandaise',
  Gc: 'wheat flour,pasta,bread,flour tortilla,udon,ramen noodles,pita,pizza dough,breadcrumbs,panko,croutons,couscous,' +
    'bulgur,baguette,phyllo,orzo,english muffin,oats,kataifi',
  GEc: 'egg noodles,ladyfingers,gnocchi',
  GMEc: 'brioche bun',
  GMc: 'naan,béchamel',
  Gx: 'beer',
  GS: 'soy sauce',
  GSc: 'hoisin sauce,teriyaki sauce,gochujang',
  S: 'tofu,edamame,miso,chili bean paste',
  P: 'peanuts',
  PS: 'peanut sauce',
  N: 'cashews,almonds,pistachios,walnuts,pine nuts,almond milk',
  MN: 'pesto',
  Z: "sesame seeds,tahini,sesame oil,za'atar",
  Zc: 'hummus',
  Y: 'celery,celery salt,beef broth',
  U: 'mustard,mustard seeds',
  UW: 'dijon mustard',
  W: 'balsamic vinegar,sherry vinegar,red wine vinegar',
  Wx: 'white wine,red wine',
  cx: 'mirin',
  K: 'lupini beans',
  c: 'rice,arborio rice,sushi rice,basmati rice,jasmine rice,sticky rice,broken rice,rice noodles,rice paper,rice cakes,' +
    'sweet potato noodles,corn tortilla,tortilla chips,potatoes,fries,sweet potato,injera,plantain,black beans,pinto beans,' +
    'kidney beans,cannellini beans,navy beans,butter beans,lentils,chickpeas,quinoa,sugar,brown sugar,maple syrup,corn,' +
    'hominy,cornmeal,grits,ketchup,bbq sauce,mango,banana,pineapple',
  oc: 'honey',
  '': 'tomato,onion,red onion,garlic,shallots,basil,thai basil,oregano,thyme,rosemary,dill,tarragon,parsley,mint,cilantro,' +
    'lime,lemon,avocado,jalapeño,poblano,scotch bonnet,bell pepper,mushrooms,shiitake,spinach,kale,arugula,lettuce,' +
    'cabbage,collard greens,cucumber,carrot,radish,ginger,galangal,lemongrass,kaffir lime leaves,scallions,leeks,fennel,' +
    'bok choy,bean sprouts,bamboo shoots,water chestnuts,eggplant,zucchini,asparagus,broccoli,cauliflower,green beans,' +
    'peas,olives,capers,pickles,pickled onion,pickled ginger,chili,chili flakes,hot sauce,salsa,salsa verde,black pepper,' +
    'sichuan pepper,sea salt,paprika,cumin,turmeric,garam masala,cardamom,cinnamon,saffron,sumac,allspice,berbere,' +
    'cayenne,curry powder,vanilla,cocoa,espresso,coconut milk,coconut,tamarind,green papaya,pear,apple,berries,' +
    'pomegranate,chia seeds,grape leaves,ackee,wasabi,nori,seaweed,olive oil,rice vinegar,apple cider vinegar',
};

/** Per ingredient: allergen bit mask (bit k = ALLERGENS[k]) and flag letters. */
export const INGREDIENTS = new Map<string, { allergens: number; flags: string }>();
for (const [tags, names] of Object.entries(INGREDIENT_GROUPS)) {
  let allergens = 0;
  for (const ch of tags) if (ALLERGEN_CODES.includes(ch)) allergens |= 1 << ALLERGEN_CODES.indexOf(ch);
  for (const name of names.split(',')) {
    if (INGREDIENTS.has(name)) throw new Error(`ingredient ${name} listed twice`);
    INGREDIENTS.set(name, { allergens, flags: tags.replace(/[A-Z]/g, '') });
  }
}

/**
 * Cuisines: key, relative frequency, chance a restaurant is halal / kosher
 * certified, venue name patterns ('*' = a made-up name), dishes
 * ("Name:core ingredients|…") and a pantry of extra ingredients.
 */
const CUISINE_TABLE: [string, number, number, number, string, string, string][] = [
  ['american', 14, 0.02, 0.01, "* Diner|The * Tavern|* Kitchen|*'s Grill",
    'Cheeseburger:brioche bun,beef,cheddar,lettuce,tomato|Buffalo Wings:chicken,butter,hot sauce,celery|Mac and Cheese:pasta,cheddar,milk,butter|Cobb Salad:lettuce,chicken,bacon,egg,avocado,blue cheese|Club Sandwich:bread,turkey,bacon,lettuce,mayonnaise|Clam Chowder:clams,potatoes,cream,celery|Meatloaf:beef,breadcrumbs,egg,ketchup|Fried Chicken:chicken,wheat flour,buttermilk|Caesar Salad:lettuce,parmesan,croutons,anchovies,egg|Apple Pie:apple,wheat flour,butter,sugar|Veggie Burger:brioche bun,black beans,lettuce,tomato',
    'onion,garlic,cheddar,bacon,lettuce,tomato,pickles,mustard,ketchup,mayonnaise,fries,jalapeño,avocado,mushrooms,coleslaw'],
  ['italian', 10, 0.02, 0.02, 'Trattoria *|Osteria *|Ristorante *|Casa *',
    'Spaghetti Carbonara:pasta,egg,pancetta,parmesan,black pepper|Lasagna:pasta,beef,ricotta,mozzarella,tomato|Risotto ai Funghi:arborio rice,mushrooms,parmesan,white wine|Chicken Parmesan:chicken,breadcrumbs,mozzarella,tomato|Penne Arrabbiata:pasta,tomato,chili,garlic|Linguine alle Vongole:pasta,clams,white wine,garlic|Tiramisu:mascarpone,egg,ladyfingers,espresso,cocoa|Caprese Salad:mozzarella,tomato,basil,olive oil|Gnocchi al Pesto:gnocchi,pesto,parmesan|Osso Buco:veal,white wine,celery,carrot|Minestrone:cannellini beans,celery,carrot,tomato,pasta',
    'garlic,olive oil,basil,oregano,parmesan,tomato,chili flakes,mushrooms,spinach,arugula,olives,capers,pine nuts,lemon,balsamic vinegar,prosciutto,lupini beans'],
  ['mexican', 12, 0.02, 0.01, 'Taqueria *|El *|Casa *|La Cocina de *',
    'Tacos al Pastor:corn tortilla,pork,pineapple,onion,cilantro|Carne Asada Burrito:flour tortilla,beef,rice,pinto beans,salsa|Chicken Enchiladas:corn tortilla,chicken,salsa verde,monterey jack|Chiles Rellenos:poblano,cotija,egg,wheat flour,tomato|Guacamole:avocado,lime,onion,cilantro,tortilla chips|Fish Tacos:corn tortilla,cod,cabbage,lime,sour cream|Pozole:pork,hominy,chili,oregano|Elote:corn,mayonnaise,cotija,chili,lime|Churros:wheat flour,sugar,cinnamon,egg|Veggie Quesadilla:flour tortilla,monterey jack,bell pepper,mushrooms|Black Bean Tostada:corn tortilla,black beans,lettuce,salsa',
    'lime,cilantro,onion,jalapeño,salsa,avocado,cotija,pinto beans,black beans,rice,chili,radish,cumin,sour cream,pickled onion'],
  ['chinese', 9, 0.03, 0.01, '* Garden|* Palace|Golden *|* Noodle House|* Wok',
    'Kung Pao Chicken:chicken,peanuts,chili,soy sauce|Mapo Tofu:tofu,pork,chili bean paste,sichuan pepper|Sweet and Sour Pork:pork,pineapple,bell pepper,sugar,wheat flour|Beef Chow Fun:rice noodles,beef,bean sprouts,soy sauce|Pork Dumplings:wheat flour,pork,cabbage,ginger|Egg Fried Rice:rice,egg,peas,carrot,scallions|Hot and Sour Soup:tofu,mushrooms,egg,rice vinegar,bamboo shoots|Peking Duck:duck,hoisin sauce,wheat flour,cucumber|Salt and Pepper Squid:squid,wheat flour,chili,garlic|Fish-Fragrant Eggplant:eggplant,garlic,ginger,chili bean paste|Sesame Chicken:chicken,sesame seeds,soy sauce,sugar|Shrimp Lo Mein:egg noodles,shrimp,bok choy,soy sauce|Buddha\'s Delight:tofu,bok choy,mushrooms,carrot,water chestnuts',
    'garlic,ginger,scallions,soy sauce,sesame oil,chili,bok choy,bean sprouts,mushrooms,water chestnuts,cashews,oyster sauce,broccoli,rice'],
  ['japanese', 6, 0.02, 0.01, '* Sushi|Sushi *|* Ramen|Izakaya *',
    'Salmon Nigiri:sushi rice,salmon,wasabi|Tuna Roll:sushi rice,tuna,nori|California Roll:sushi rice,surimi,avocado,cucumber,nori|Tonkotsu Ramen:ramen noodles,pork,egg,scallions|Chicken Katsu:chicken,panko,egg,cabbage|Shrimp Tempura:shrimp,wheat flour,egg,sweet potato|Miso Soup:miso,tofu,seaweed,dashi|Teriyaki Chicken:chicken,teriyaki sauce,rice|Edamame:edamame,sea salt|Gyoza:wheat flour,pork,cabbage,garlic|Kitsune Udon:udon,dashi,tofu,scallions|Vegetable Roll:sushi rice,cucumber,avocado,carrot,nori',
    'nori,sesame seeds,scallions,ginger,pickled ginger,wasabi,soy sauce,mirin,shiitake,bonito flakes,seaweed,edamame,mayonnaise,cucumber'],
  ['indian', 4, 0.25, 0.02, '* Palace|Taste of *|* Curry House|* Tandoor',
    'Chicken Tikka Masala:chicken,yogurt,cream,tomato,garam masala|Butter Chicken:chicken,butter,cream,tomato|Palak Paneer:paneer,spinach,cream,garlic|Chana Masala:chickpeas,tomato,onion,cumin|Lamb Rogan Josh:lamb,yogurt,chili,onion|Vegetable Biryani:basmati rice,carrot,peas,saffron,cashews|Samosa:wheat flour,potatoes,peas,cumin|Dal Makhani:lentils,butter,cream,tomato|Garlic Naan:naan,garlic,butter|Aloo Gobi:potatoes,cauliflower,turmeric,cumin|Goan Fish Curry:cod,coconut milk,chili,tamarind,mustard seeds|Mango Lassi:mango,yogurt,sugar,cardamom',
    'onion,garlic,ginger,cilantro,cumin,turmeric,garam masala,chili,basmati rice,naan,mint,cashews,almonds,ghee,mustard seeds'],
  ['thai', 4, 0.05, 0.01, '* Thai|Thai *|* Siam|Bangkok *',
    'Pad Thai:rice noodles,shrimp,egg,peanuts,tamarind,fish sauce|Green Curry:chicken,coconut milk,green curry paste,thai basil|Tom Yum Soup:shrimp,lemongrass,galangal,lime,fish sauce|Massaman Curry:beef,potatoes,coconut milk,peanuts,massaman paste|Som Tam:green papaya,peanuts,lime,fish sauce,tomato|Pad See Ew:rice noodles,chicken,egg,broccoli,soy sauce|Larb:pork,mint,lime,fish sauce|Mango Sticky Rice:sticky rice,mango,coconut milk,sugar|Tofu Basil Stir-Fry:tofu,thai basil,chili,garlic,soy sauce',
    'lime,chili,garlic,thai basil,cilantro,lemongrass,fish sauce,peanuts,jasmine rice,bean sprouts,scallions,cashews,kaffir lime leaves'],
  ['vietnamese', 3, 0.03, 0.01, 'Pho *|* Pho|* Banh Mi|Saigon *',
    'Pho Bo:rice noodles,beef,bean sprouts,thai basil,fish sauce|Banh Mi:baguette,pork,carrot,cilantro,mayonnaise|Spring Rolls:rice paper,shrimp,lettuce,mint,peanut sauce|Bun Cha:pork,rice noodles,lettuce,fish sauce|Com Tam:broken rice,pork,egg,fish sauce|Lemongrass Tofu:tofu,lemongrass,chili,rice|Bun Bo Hue:rice noodles,beef,lemongrass,shrimp paste|Caramel Catfish:catfish,sugar,fish sauce,garlic|Vegetable Pho:rice noodles,tofu,bok choy,bean sprouts,thai basil',
    'cilantro,mint,thai basil,lime,bean sprouts,fish sauce,chili,scallions,cucumber,carrot,peanuts,lettuce,rice'],
  ['korean', 2, 0.02, 0.01, '* BBQ|Seoul *|* Kitchen|* Pocha',
    'Bibimbap:rice,beef,egg,spinach,gochujang|Bulgogi:beef,soy sauce,pear,garlic|Kimchi Jjigae:kimchi,pork,tofu,chili|Korean Fried Chicken:chicken,wheat flour,gochujang,garlic|Japchae:sweet potato noodles,beef,spinach,carrot,soy sauce|Haemul Pajeon:wheat flour,egg,squid,shrimp,scallions|Tteokbokki:rice cakes,gochujang,fish cake,scallions|Sundubu Jjigae:tofu,clams,egg,chili|Galbi:beef,soy sauce,garlic,pear',
    'kimchi,scallions,garlic,sesame seeds,sesame oil,gochujang,chili,rice,cucumber,bean sprouts,spinach,seaweed'],
  ['mediterranean', 3, 0.15, 0.05, '* Mezze|* Grill|Olive *|* Table',
    'Falafel Wrap:chickpeas,parsley,pita,tahini,cucumber|Chicken Shawarma Plate:chicken,garlic,rice,hummus,pickles|Halloumi Salad:halloumi,arugula,tomato,olives,lemon|Lamb Kofta:lamb,onion,parsley,cumin,yogurt|Mezze Platter:hummus,eggplant,pita,olives,feta|Shakshuka:egg,tomato,bell pepper,cumin|Grilled Branzino:sea bass,lemon,olive oil,oregano|Couscous Salad:couscous,chickpeas,cucumber,mint|Lentil Soup:lentils,carrot,celery,cumin,lemon',
    "olive oil,lemon,garlic,parsley,mint,cumin,tomato,cucumber,red onion,olives,feta,tahini,pita,chickpeas,za'atar,pine nuts,lupini beans"],
  ['greek', 2, 0.03, 0.02, '* Taverna|Opa *|* Greek Kitchen|Athena *',
    'Lamb Gyro:pita,lamb,tzatziki,tomato,red onion|Moussaka:eggplant,lamb,béchamel,tomato|Spanakopita:phyllo,spinach,feta,egg,dill|Greek Salad:tomato,cucumber,feta,olives,red onion|Pork Souvlaki:pork,lemon,oregano,pita|Pastitsio:pasta,beef,béchamel,tomato,cinnamon|Grilled Octopus:octopus,olive oil,lemon,capers|Baklava:phyllo,walnuts,pistachios,honey,butter|Avgolemono:chicken,egg,lemon,orzo,celery|Dolmades:grape leaves,rice,dill,lemon,pine nuts',
    'olive oil,lemon,oregano,feta,olives,tomato,cucumber,red onion,dill,garlic,tzatziki,pita,capers,mint'],
  ['middle-eastern', 2, 0.5, 0.08, '* Shawarma|* Kabob|Cedar *|* Grill',
    'Chicken Kebab:chicken,yogurt,garlic,sumac,rice|Lamb Shawarma:lamb,pita,tahini,pickles|Hummus:chickpeas,tahini,lemon,garlic,olive oil|Falafel Plate:chickpeas,parsley,cumin,tahini|Fattoush:lettuce,tomato,cucumber,pita,sumac|Tabbouleh:bulgur,parsley,tomato,mint,lemon|Mansaf:lamb,yogurt,rice,almonds|Kibbeh:bulgur,beef,onion,pine nuts|Mujaddara:lentils,rice,onion,cumin|Kunafa:kataifi,akkawi,sugar,pistachios',
    "garlic,lemon,parsley,mint,sumac,tahini,pita,olive oil,onion,tomato,cucumber,pickles,rice,chickpeas,almonds,pomegranate,za'atar"],
  ['french', 2, 0.01, 0.02, 'Café *|Bistro *|Chez *|Brasserie *',
    "Steak Frites:beef,fries,butter,shallots|Coq au Vin:chicken,red wine,mushrooms,bacon|French Onion Soup:onion,beef broth,gruyère,baguette|Croque Monsieur:bread,ham,gruyère,béchamel,dijon mustard|Salade Niçoise:tuna,egg,green beans,olives,potatoes|Bouillabaisse:cod,mussels,shrimp,fennel,saffron|Ratatouille:eggplant,zucchini,bell pepper,tomato,olive oil|Quiche Lorraine:wheat flour,egg,cream,bacon,gruyère|Duck Confit:duck,potatoes,garlic,thyme|Crème Brûlée:cream,egg,sugar,vanilla|Moules Marinières:mussels,white wine,shallots,parsley",
    'butter,shallots,garlic,thyme,parsley,dijon mustard,cream,white wine,baguette,gruyère,mushrooms,tarragon,leeks,goat cheese'],
  ['spanish', 1, 0.02, 0.01, '* Tapas|Bodega *|La *|* Cocina',
    'Paella:rice,saffron,shrimp,mussels,chorizo|Patatas Bravas:potatoes,tomato,paprika,aioli|Gambas al Ajillo:shrimp,garlic,olive oil,chili|Tortilla Española:egg,potatoes,onion,olive oil|Pan con Jamón:serrano ham,bread,tomato|Gazpacho:tomato,cucumber,bell pepper,sherry vinegar|Pulpo a la Gallega:octopus,potatoes,paprika,olive oil|Croquetas:béchamel,ham,breadcrumbs,egg|Churros con Chocolate:wheat flour,sugar,chocolate|Albóndigas:beef,pork,tomato,breadcrumbs',
    'olive oil,garlic,paprika,saffron,tomato,onion,parsley,lemon,almonds,manchego,olives,chorizo,bread,sherry vinegar'],
  ['caribbean', 1.5, 0.03, 0.01, '* Island Grill|* Jerk Hut|Caribe *|* Kitchen',
    'Jerk Chicken:chicken,scotch bonnet,allspice,thyme|Curry Goat:goat,curry powder,potatoes,onion|Rice and Peas:rice,kidney beans,coconut milk,thyme|Oxtail Stew:oxtail,butter beans,carrot,allspice|Fried Plantains:plantain,sea salt|Ackee and Saltfish:ackee,salt cod,onion,tomato|Cuban Sandwich:bread,pork,ham,swiss cheese,pickles,mustard|Ropa Vieja:beef,bell pepper,tomato,olives|Conch Fritters:conch,wheat flour,egg,bell pepper|Jamaican Beef Patty:wheat flour,beef,butter,scotch bonnet',
    'scotch bonnet,allspice,thyme,lime,scallions,garlic,onion,coconut milk,rice,plantain,black beans,mango,pineapple,cilantro'],
  ['ethiopian', 0.7, 0.2, 0.01, '* Ethiopian|Addis *|* Injera House',
    'Doro Wat:chicken,berbere,onion,egg,niter kibbeh|Misir Wat:lentils,berbere,onion,garlic|Tibs:beef,onion,rosemary,jalapeño|Kitfo:beef,chili,niter kibbeh,ayib|Shiro:chickpeas,berbere,garlic,onion|Gomen:collard greens,garlic,ginger,onion|Atakilt Wat:cabbage,potatoes,carrot,turmeric|Veggie Combo:lentils,chickpeas,collard greens,cabbage,injera',
    'injera,berbere,onion,garlic,ginger,turmeric,tomato,jalapeño,lemon,cardamom,niter kibbeh'],
  ['bbq', 4, 0.01, 0.01, "* Smokehouse|* BBQ|* Pit|Smokin' *",
    'Brisket:beef,paprika,black pepper,sea salt|Pulled Pork Sandwich:pork,brioche bun,bbq sauce,coleslaw|Baby Back Ribs:pork,bbq sauce,paprika,brown sugar|Smoked Chicken:chicken,paprika,garlic|Burnt Ends:beef,bbq sauce,brown sugar|Smoked Sausage:sausage,mustard,pickles|Smoked Mac and Cheese:pasta,cheddar,milk,breadcrumbs|Cornbread:cornmeal,buttermilk,egg,honey|Collard Greens:collard greens,bacon,onion,apple cider vinegar|Baked Beans:navy beans,bacon,brown sugar,mustard',
    'bbq sauce,pickles,onion,coleslaw,jalapeño,cheddar,paprika,garlic,brioche bun,mustard,black pepper,hot sauce'],
  ['seafood', 4, 0.02, 0.01, '* Oyster Bar|* Fish House|* Crab Shack|The * Catch',
    'Lobster Roll:lobster,brioche bun,mayonnaise,celery|Fish and Chips:cod,wheat flour,beer,fries|Shrimp Scampi:shrimp,pasta,garlic,butter,white wine|Grilled Salmon:salmon,lemon,dill,asparagus|Crab Cakes:crab,breadcrumbs,egg,mayonnaise,celery salt|Oysters on the Half Shell:oysters,lemon,shallots,red wine vinegar|Cioppino:cod,clams,mussels,shrimp,tomato|Fried Calamari:squid,wheat flour,lemon,tomato|Seared Scallops:scallops,butter,lemon,garlic|Shrimp and Grits:shrimp,grits,cheddar,bacon|Blackened Catfish:catfish,paprika,cayenne,butter',
    'lemon,garlic,butter,parsley,dill,celery salt,capers,shallots,white wine,mayonnaise,coleslaw,fries,asparagus,hot sauce'],
  ['pizza', 8, 0.02, 0.02, '* Pizza|* Pizzeria|Pizza *|* Slice',
    'Margherita Pizza:pizza dough,tomato,mozzarella,basil|Pepperoni Pizza:pizza dough,tomato,mozzarella,pepperoni|Hawaiian Pizza:pizza dough,tomato,mozzarella,ham,pineapple|Veggie Pizza:pizza dough,tomato,mozzarella,bell pepper,mushrooms|White Pizza:pizza dough,ricotta,mozzarella,garlic|BBQ Chicken Pizza:pizza dough,bbq sauce,chicken,mozzarella|Meat Lovers Pizza:pizza dough,tomato,mozzarella,pepperoni,sausage|Calzone:pizza dough,ricotta,mozzarella,ham|Garlic Knots:pizza dough,garlic,butter,parmesan|Garden Salad:lettuce,tomato,cucumber,carrot',
    'mozzarella,parmesan,tomato,basil,oregano,garlic,chili flakes,mushrooms,olives,onion,bell pepper,jalapeño,arugula,pepperoni,sausage,anchovies,pineapple'],
  ['cafe', 6, 0.01, 0.02, 'Café *|* Coffee|* Bakery|* Café',
    'Avocado Toast:bread,avocado,lemon,chili flakes|Eggs Benedict:english muffin,egg,ham,hollandaise|Pancakes:wheat flour,egg,milk,maple syrup|Yogurt Parfait:oats,yogurt,berries,honey|Quinoa Salad:quinoa,kale,chickpeas,lemon|BLT:bread,bacon,lettuce,tomato,mayonnaise|Croissant:wheat flour,butter,egg|Smoothie Bowl:banana,berries,almond milk,coconut|Grilled Cheese:bread,cheddar,butter|Blueberry Muffin:wheat flour,berries,sugar,egg|Tomato Soup:tomato,onion,garlic,cream|Buddha Bowl:quinoa,sweet potato,kale,chickpeas,tahini',
    'avocado,egg,spinach,tomato,berries,banana,honey,almonds,walnuts,chia seeds,kale,goat cheese,bacon,mushrooms'],
];

export interface Cuisine {
  key: string;
  weight: number;
  halal: number;
  kosher: number;
  venues: string[];
  dishes: { name: string; core: string[] }[];
  pantry: string[];
}

/** checkIngredient throws unless the name is in the ingredient table. */
function checkIngredient(name: string, where: string): string {
  if (!INGREDIENTS.has(name)) throw new Error(`unknown ingredient ${JSON.stringify(name)} in ${where}`);
  return name;
}

export const CUISINES_BY_INDEX: Cuisine[] = CUISINE_TABLE.map(([key, weight, halal, kosher, venues, dishes, pantry]) => ({
  key,
  weight,
  halal,
  kosher,
  venues: venues.split('|'),
  dishes: dishes.split('|').map((d) => {
    const [name, core] = d.split(':');
    return { name, core: core.split(',').map((i) => checkIngredient(i, `${key} ${name}`)) };
  }),
  pantry: pantry.split(',').map((i) => checkIngredient(i, `${key} pantry`)),
}));
export const CUISINE_WEIGHTS = CUISINES_BY_INDEX.map((c) => c.weight);
export const CUISINE_BY_KEY = new Map(CUISINES_BY_INDEX.map((c) => [c.key, c]));

// The table and the vocabulary's cuisine keys must be the same list, in the same order.
if (CUISINES_BY_INDEX.map((c) => c.key).join() !== CUISINES.join()) {
  throw new Error(`menu.ts: the cuisine table's keys (${CUISINES_BY_INDEX.map((c) => c.key).join(', ')}) differ from CUISINES in vocabulary.ts (${CUISINES.join(', ')})`);
}

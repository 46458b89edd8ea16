#include "dev/ibis_device.h"
#include "util/ibis_error.h"

#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace ibis;

TEST(dev, platform_name_selects_gt2)
{
   const device_info &skl = device_by_name("skl");
   EXPECT_STREQ(skl.name, "skl_gt2");
   EXPECT_EQ(skl.ver, 9u);
   EXPECT_TRUE(skl.has_pln);
   EXPECT_STREQ(device_by_name("icl").name, "icl_gt2");
   EXPECT_FALSE(device_by_name("icl").has_64bit_float);
   EXPECT_EQ(device_by_name("bdw").ver, 8u);
}

TEST(dev, full_name_lookup)
{
   EXPECT_EQ(device_by_name("skl_gt4").gt, 4u);
   EXPECT_EQ(device_by_name("kbl_gt1_5").platform, std::string("kbl"));
}

TEST(dev, unknown_name_is_an_error)
{
   try {
      device_by_name("tgl");
      FAIL() << "no error";
   } catch (const error &e) {
      EXPECT_EQ(std::string(e.what()),
                "unknown platform 'tgl' (known: bdw, icl, kbl, skl, or a name such as skl_gt3)");
   }
}

TEST(dev, pci_ids)
{
   /* HD Graphics 530 is SKL GT2; Iris Pro 580 is SKL GT4; 0x8a52 is ICL GT2. */
   ASSERT_NE(device_by_pci_id(0x1912), nullptr);
   EXPECT_STREQ(device_by_pci_id(0x1912)->name, "skl_gt2");
   EXPECT_STREQ(device_by_pci_id(0x193b)->name, "skl_gt4");
   EXPECT_STREQ(device_by_pci_id(0x8a52)->name, "icl_gt2");
   EXPECT_EQ(device_by_pci_id(0x0000), nullptr);
}

TEST(dev, pci_ids_are_unique)
{
   std::set<uint16_t> seen;
   for (unsigned i = 0; i < device_pci_id_count; i++)
      EXPECT_TRUE(seen.insert(device_pci_ids[i].id).second)
         << "duplicate PCI id " << device_pci_ids[i].id;
   EXPECT_GT(device_pci_id_count, 50u);
}

TEST(dev, probe_returns_a_known_device_or_none)
{
   uint16_t id = 0;
   const device_info *dev = device_probe(&id);
   if (dev)
      EXPECT_EQ(device_by_pci_id(id), dev);
   else
      EXPECT_EQ(id, 0u);
}

/*
 * The GPUs ibis compiles for.  A device is chosen by name ("skl", "skl_gt2"),
 * by PCI device id, or by probing the machine through libdrm.
 */
#pragma once

#include <cstdint>
#include <string>

namespace ibis {

struct device_info {
   const char *name;      /* "skl_gt2" */
   const char *platform;  /* "skl" */
   unsigned ver;          /* graphics generation: 8, 9, 11 */
   unsigned gt;
   unsigned eus_per_subslice;
   unsigned subslices;
   unsigned max_cs_threads;
   bool has_pln;
   bool has_64bit_float;
   bool has_64bit_int;
   bool has_integer_dword_mul;

   /* The EU's general register file is the same on every target here. */
   static constexpr unsigned grf_count = 128;
   static constexpr unsigned grf_bytes = 32;
};

/* Looks a device up by platform ("skl" picks its common GT2 part) or full
 * name ("skl_gt3").  Throws ibis::error naming the known platforms.
 */
const device_info &device_by_name(const std::string &name);

/* nullptr when the id is not an Intel GPU ibis knows. */
const device_info *device_by_pci_id(uint16_t pci_id);

/* The first Intel GPU libdrm reports on this machine, or nullptr (also when
 * ibis was built without libdrm).  *pci_id receives its id when found.
 */
const device_info *device_probe(uint16_t *pci_id = nullptr);

/* Generated tables (ibis_device_table.cpp). */
struct device_platform_default {
   const char *platform;
   unsigned index;
};
struct device_pci_id {
   uint16_t id;
   unsigned index;
};
extern const device_info device_table[];
extern const unsigned device_table_count;
extern const device_platform_default device_platform_defaults[];
extern const unsigned device_platform_default_count;
extern const device_pci_id device_pci_ids[];
extern const unsigned device_pci_id_count;

} /* namespace ibis */

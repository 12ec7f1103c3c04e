/* Envelope and contents (exactly the arguments the user gave) and names. */
#include "dt.h"

#include <string.h>

static int check_type(const char *fn, MPI_Datatype dt, int out_ok)
{
    return ucmpi_dt_check_entry(fn, dt, "datatype", out_ok,
                                "an output pointer");
}

#pragma weak MPI_Type_get_envelope = PMPI_Type_get_envelope
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers,
                           int *num_addresses, int *num_datatypes,
                           int *combiner)
{
    static const char fn[] = "MPI_Type_get_envelope";
    int rc = check_type(fn, datatype, num_integers && num_addresses &&
                        num_datatypes && combiner);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(datatype);
    if (im->combiner == MPI_COMBINER_NAMED) {
        *num_integers = *num_addresses = *num_datatypes = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    if (im->nc > 0)
        return ucmpi_dt_err(MPI_ERR_TYPE, fn,
                            "type was built with large counts: use "
                            "MPI_Type_get_envelope_c");
    *num_integers = im->ni;
    *num_addresses = im->na;
    *num_datatypes = im->nt;
    *combiner = im->combiner;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_envelope_c = PMPI_Type_get_envelope_c
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses,
                             MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    static const char fn[] = "MPI_Type_get_envelope_c";
    int rc = check_type(fn, datatype, num_integers && num_addresses &&
                        num_large_counts && num_datatypes && combiner);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(datatype);
    int named = im->combiner == MPI_COMBINER_NAMED;
    *num_integers = named ? 0 : im->ni;
    *num_addresses = named ? 0 : im->na;
    *num_large_counts = named ? 0 : im->nc;
    *num_datatypes = named ? 0 : im->nt;
    *combiner = im->combiner;
    return MPI_SUCCESS;
}

/* get_contents (large = 0: a type with large counts is refused) and
 * get_contents_c */
static int contents(const char *fn, MPI_Datatype datatype, int large,
                    MPI_Count max_integers, MPI_Count max_addresses,
                    MPI_Count max_large_counts, MPI_Count max_datatypes,
                    int *ints, MPI_Aint *aints, MPI_Count *counts,
                    MPI_Datatype *types)
{
    int rc = check_type(fn, datatype, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(datatype);
    if (im->combiner == MPI_COMBINER_NAMED)
        return ucmpi_dt_err(MPI_ERR_TYPE, fn,
                            "%s is predefined (MPI_COMBINER_NAMED): it has "
                            "no contents", im->name);
    if (im->nc > 0 && !large)
        return ucmpi_dt_err(MPI_ERR_TYPE, fn,
                            "type was built with large counts: use "
                            "MPI_Type_get_contents_c");
    if (max_integers < im->ni || max_addresses < im->na ||
        max_large_counts < im->nc || max_datatypes < im->nt)
        return ucmpi_dt_err(MPI_ERR_ARG, fn,
                            "arrays too small: need %d integers, %d "
                            "addresses, %lld large counts, %d datatypes",
                            im->ni, im->na, im->nc, im->nt);
    if ((im->ni && !ints) || (im->na && !aints) || (im->nc && !counts) ||
        (im->nt && !types))
        return ucmpi_dt_err(MPI_ERR_ARG, fn, "an output array is NULL");
    if (im->ni)
        memcpy(ints, im->ints, sizeof(int) * (size_t)im->ni);
    if (im->na)
        memcpy(aints, im->aints, sizeof(MPI_Aint) * (size_t)im->na);
    if (im->nc)
        memcpy(counts, im->counts, sizeof(MPI_Count) * (size_t)im->nc);
    /* derived types come back as new references the user frees */
    for (int i = 0; i < im->nt; i++) {
        types[i] = im->types[i];
        ucmpi_dt_retain(im->types[i]);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_contents = PMPI_Type_get_contents
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers,
                           int max_addresses, int max_datatypes,
                           int array_of_integers[],
                           MPI_Aint array_of_addresses[],
                           MPI_Datatype array_of_datatypes[])
{
    return contents("MPI_Type_get_contents", datatype, 0, max_integers,
                    max_addresses, 0, max_datatypes, array_of_integers,
                    array_of_addresses, NULL, array_of_datatypes);
}

#pragma weak MPI_Type_get_contents_c = PMPI_Type_get_contents_c
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                             MPI_Count max_addresses,
                             MPI_Count max_large_counts,
                             MPI_Count max_datatypes,
                             int array_of_integers[],
                             MPI_Aint array_of_addresses[],
                             MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    return contents("MPI_Type_get_contents_c", datatype, 1, max_integers,
                    max_addresses, max_large_counts, max_datatypes,
                    array_of_integers, array_of_addresses,
                    array_of_large_counts, array_of_datatypes);
}

#pragma weak MPI_Type_set_name = PMPI_Type_set_name
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    static const char fn[] = "MPI_Type_set_name";
    int rc = ucmpi_dt_check_entry(fn, datatype, "datatype", type_name != NULL,
                                  "type_name");
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(datatype);
    strncpy(im->name, type_name, MPI_MAX_OBJECT_NAME - 1);
    im->name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_name = PMPI_Type_get_name
int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    static const char fn[] = "MPI_Type_get_name";
    int rc = check_type(fn, datatype, type_name && resultlen);
    if (rc != MPI_SUCCESS)
        return rc;
    ucmpi_dt_impl_t *im = ucmpi_dt_impl(datatype);
    strcpy(type_name, im->name);
    *resultlen = (int)strlen(type_name);
    return MPI_SUCCESS;
}
